import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import * as grpc from '@grpc/grpc-js';
import { BearerError, DomainError } from '@platform/domain';
import {
  AUTH_SERVICE_NAME,
  type AuthServiceClient,
  createAuthServiceClient,
  DECIDED_BY_METADATA,
  DECISION_ID_METADATA,
  INTERNAL_TOKEN_METADATA,
  type InvalidationMessage,
  type TokenClaims,
} from '@platform/grpc';
import { service as healthService } from 'grpc-health-check';
import type { DpopPresentation } from '../auth/dpop-resource-check';
import { PermissionDeniedError } from '../auth/permission-denied.error';

const CALL_DEADLINE_MS = 2_000;
/** RevokeToken waits for the control plane's write and the sidecar's sync. */
const REVOKE_DEADLINE_MS = 5_000;
const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  'grpc.keepalive_time_ms': 10_000,
  'grpc.keepalive_timeout_ms': 5_000,
  // The sidecar is on this pod's loopback: after it restarts, reconnect within a fraction of a
  // second rather than after grpc-js's default backoff (1 s, growing to 2 min).
  'grpc.initial_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 1_000,
};
const HEALTH_DEADLINE_MS = 1_000;

export type SidecarState = 'connected' | 'unavailable';

/** An allowed Authorize: who the caller is and which decision let it through. */
export interface Authorization {
  claims: TokenClaims;
  decisionId: string;
  decidedBy: string[];
}

interface HealthClient extends grpc.Client {
  Check(
    request: { service: string },
    metadata: grpc.Metadata,
    options: Partial<grpc.CallOptions>,
    callback: (error: grpc.ServiceError | null, response: { status: string }) => void,
  ): grpc.ClientUnaryCall;
}

/**
 * The sidecar beside this backend, over gRPC on loopback. Fails closed: a token is accepted only
 * when the sidecar says so; any failure other than a refusal is DomainError `unavailable` (503).
 */
@Injectable()
export class SidecarClient implements OnApplicationShutdown {
  private readonly logger = new Logger(SidecarClient.name);
  private readonly auth: AuthServiceClient;
  private readonly health: HealthClient;

  constructor(
    address: string,
    private readonly internalToken: string,
  ) {
    // Pings reveal a sidecar that hangs without closing the connection: the invalidation stream
    // then fails, and the validation cache goes dark rather than serve answers it cannot keep exact.
    this.auth = createAuthServiceClient(address, CHANNEL_OPTIONS);
    const Health = grpc.makeClientConstructor(
      healthService as unknown as grpc.ServiceDefinition,
      'grpc.health.v1.Health',
    ) as unknown as new (
      address: string,
      credentials: grpc.ChannelCredentials,
      options: grpc.ClientOptions,
    ) => HealthClient;
    // The health check rides the validation calls' own channel: readiness says 200 only when that
    // channel can carry a call (a second channel reconnected sooner once, and /readyz answered 200
    // while every token validation failed for seconds after a sidecar restart).
    this.health = new Health(address, grpc.credentials.createInsecure(), {
      channelOverride: this.auth.getChannel(),
    });
  }

  /**
   * The token's claims; BearerError invalid_token when the sidecar refuses it. `audience`: the
   * resource the token must be for ('' or absent: the issuer, i.e. the platform's own API).
   */
  validateToken(token: string, audience = '', dpop?: DpopPresentation): Promise<TokenClaims> {
    return new Promise((resolve, reject) => {
      this.auth.ValidateToken(
        dpop === undefined
          ? { token, audience }
          : { token, audience, dpop_proof: dpop.proof, http_method: dpop.method, http_url: dpop.url },
        this.metadata(),
        { deadline: deadline(CALL_DEADLINE_MS) },
        (error, response) => {
          if (!error && response?.claims) return resolve(response.claims);
          if (error?.code === grpc.status.UNAUTHENTICATED || error?.code === grpc.status.INVALID_ARGUMENT) {
            return reject(new BearerError('invalid_token', error.details || 'The access token is invalid'));
          }
          this.logger.warn(`ValidateToken failed: ${failure(error)}`);
          reject(new DomainError('unavailable', 'Token validation is unavailable'));
        },
      );
    });
  }

  /**
   * Validates the token and decides `action` on a resource of `resourceTenant` ('' for a
   * platform-wide resource) in one sidecar call. UNAUTHENTICATED: BearerError invalid_token;
   * PERMISSION_DENIED: PermissionDeniedError (403 insufficient_scope with the decision id and the
   * deciding policies); anything else, INVALID_ARGUMENT included: DomainError unavailable (503).
   */
  authorize(
    token: string,
    action: string,
    resourceTenant: string,
    dpop?: DpopPresentation,
  ): Promise<Authorization> {
    return new Promise((resolve, reject) => {
      this.auth.Authorize(
        {
          token,
          action,
          resource_tenant: resourceTenant,
          ...(dpop !== undefined && { dpop_proof: dpop.proof, http_method: dpop.method, http_url: dpop.url }),
        },
        this.metadata(),
        { deadline: deadline(CALL_DEADLINE_MS) },
        (error, response) => {
          if (!error && response?.claims) {
            return resolve({
              claims: response.claims,
              decisionId: response.decision_id,
              decidedBy: response.decided_by,
            });
          }
          if (error?.code === grpc.status.UNAUTHENTICATED) {
            return reject(new BearerError('invalid_token', error.details || 'The access token is invalid'));
          }
          if (error?.code === grpc.status.PERMISSION_DENIED) {
            return reject(permissionDenied(action, error));
          }
          this.logger.warn(`Authorize failed: ${failure(error)}`);
          reject(new DomainError('unavailable', 'Authorization is unavailable'));
        },
      );
    });
  }

  /**
   * Revokes an access token (RevokeToken, docs/internal-api.md): the control plane persists it
   * and the sidecar applies it before answering. A token the control plane cannot read is not an
   * error (RFC 7009 answers the same for every token); failing to reach the sidecar is 503.
   */
  revokeToken(token: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.auth.RevokeToken(
        { token },
        this.metadata(),
        { deadline: deadline(REVOKE_DEADLINE_MS) },
        (error) => {
          if (!error || error.code === grpc.status.INVALID_ARGUMENT) return resolve();
          this.logger.warn(`RevokeToken failed: ${grpc.status[error.code] ?? error.code}`);
          reject(new DomainError('unavailable', 'Token revocation is unavailable'));
        },
      );
    });
  }

  /**
   * Makes the sidecar pull the control plane's revocations now; resolves once applied, with the
   * highest revocation seq the sidecar has applied.
   */
  syncRevocations(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.auth.SyncRevocations(
        {},
        this.metadata(),
        { deadline: deadline(CALL_DEADLINE_MS) },
        (error, response) => {
          if (!error && response) return resolve(response.last_seq);
          reject(new DomainError('unavailable', `SyncRevocations failed: ${failure(error)}`));
        },
      );
    });
  }

  /**
   * Opens the sidecar's WatchInvalidations stream (no deadline: it lives as long as the
   * sidecar). The caller owns it and cancels it when done.
   */
  watchInvalidations(): grpc.ClientReadableStream<InvalidationMessage> {
    // proto-loader's `oneofs: true` sets `change` to the field of the oneof that is present.
    return this.auth.WatchInvalidations(
      {},
      this.metadata(),
    ) as grpc.ClientReadableStream<InvalidationMessage>;
  }

  /** `grpc.health.v1.Health/Check` of the auth service: connected only when SERVING. */
  state(): Promise<SidecarState> {
    return new Promise((resolve) => {
      this.health.Check(
        { service: AUTH_SERVICE_NAME },
        new grpc.Metadata(),
        { deadline: deadline(HEALTH_DEADLINE_MS) },
        (error, response) => {
          resolve(!error && response.status === 'SERVING' ? 'connected' : 'unavailable');
        },
      );
    });
  }

  onApplicationShutdown(): void {
    this.auth.close();
    this.health.close();
  }

  private metadata(): grpc.Metadata {
    const metadata = new grpc.Metadata();
    metadata.set(INTERNAL_TOKEN_METADATA, this.internalToken);
    return metadata;
  }
}

const deadline = (ms: number): Date => new Date(Date.now() + ms);

/** How a call failed, for the log: its status, or an answer without the message it must carry. */
const failure = (error: grpc.ServiceError | null): string =>
  error ? String(grpc.status[error.code] ?? error.code) : 'empty answer';

/** The refusal with the decision the sidecar sent in its trailing metadata. */
function permissionDenied(action: string, error: grpc.ServiceError): PermissionDeniedError {
  const [decisionId] = error.metadata?.get(DECISION_ID_METADATA) ?? [];
  const [decidedBy] = error.metadata?.get(DECIDED_BY_METADATA) ?? [];
  return new PermissionDeniedError(
    action,
    typeof decisionId === 'string' ? decisionId : '',
    typeof decidedBy === 'string' && decidedBy !== '' ? decidedBy.split(',') : [],
  );
}
