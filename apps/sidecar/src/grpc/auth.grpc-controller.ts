import { Controller, Logger, UseGuards } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import type {
  AuthorizeRequest,
  AuthorizeResponse,
  InvalidationMessage,
  JsonWebKeyMessage,
  TokenClaims,
} from '@platform/grpc';
import { toJsonWebKeyMessage } from '../keys/json-web-key-message';
import { MAX_ACCESS_TOKEN_LENGTH } from '@platform/domain';
import type { Observable } from 'rxjs';
import { TokenAuthorizer } from '../authorization/token-authorizer';
import { ControlPlaneApi } from '../control-plane/control-plane-api';
import { SidecarError } from '../errors';
import { KeyCache } from '../keys/key-cache';
import { RevocationSync } from '../revocation/revocation-sync';
import { InternalTokenGuard } from './internal-token.guard';
import { InvalidationStreams } from './invalidation-streams';

type Empty = Record<string, never>;
type TokenRequest = { token?: string };
type DpopFields = { dpop_proof?: string; http_method?: string; http_url?: string };
type ValidateTokenRequest = TokenRequest & { audience?: string } & DpopFields;

/** The DPoP fields of a call, when it carried a proof (RFC 9449; docs/internal-api.md). */
function presentationOf({ dpop_proof = '', http_method = '', http_url = '' }: DpopFields) {
  return dpop_proof === '' ? {} : { dpop: { proof: dpop_proof, method: http_method, url: http_url } };
}

/**
 * `platform.auth.v1.AuthService`. Failures are thrown and become statuses in GrpcStatusFilter;
 * the mutating methods and the invalidation stream need the internal token (InternalTokenGuard).
 */
@Controller()
export class AuthGrpcController {
  private readonly logger = new Logger('AuthService');

  constructor(
    private readonly authorizer: TokenAuthorizer,
    private readonly keys: KeyCache,
    private readonly revocations: RevocationSync,
    private readonly controlPlane: ControlPlaneApi,
    private readonly invalidations: InvalidationStreams,
  ) {}

  @GrpcMethod('AuthService', 'ValidateToken')
  async validateToken(request: ValidateTokenRequest): Promise<{ claims: TokenClaims }> {
    const { token = '', audience = '' } = request;
    const { claims } = await this.authorizer.authorizeRpc('AuthService/ValidateToken', {
      token,
      audience,
      ...presentationOf(request),
    });
    return { claims };
  }

  /**
   * The hot path of every protected backend request: one token validation (as ValidateToken),
   * one in-memory policy evaluation. Refused: PERMISSION_DENIED naming the decision.
   */
  @GrpcMethod('AuthService', 'Authorize')
  async authorize(request: Partial<AuthorizeRequest>): Promise<AuthorizeResponse> {
    const { token = '', action = '', resource_tenant: tenant = '', audience = '' } = request;
    const { claims, decision } = await this.authorizer.authorizeRpc('AuthService/Authorize', {
      token,
      action,
      tenant,
      audience,
      ...presentationOf(request),
    });
    return { claims, decided_by: decision.decidedBy, decision_id: decision.decisionId };
  }

  @GrpcMethod('AuthService', 'RevokeToken')
  @UseGuards(InternalTokenGuard)
  async revokeToken({ token = '' }: TokenRequest): Promise<Empty> {
    if (token === '') throw new SidecarError('token_missing', 'token is empty');
    // Longer than any token the platform issues: nothing to revoke (RFC 7009 section 2.2).
    if (token.length > MAX_ACCESS_TOKEN_LENGTH) return {};
    await this.controlPlane.revokeAccessToken(token);
    try {
      await this.revocations.syncNow();
    } catch (error) {
      // Persisted by the control plane: the stream or the next poll applies it here.
      this.logger.warn(`revoked, but the local sync failed: ${(error as Error).message}`);
    }
    return {};
  }

  @GrpcMethod('AuthService', 'GetJwks')
  getJwks(): { keys: JsonWebKeyMessage[] } {
    return { keys: this.keys.publicKeys().map(toJsonWebKeyMessage) };
  }

  @GrpcMethod('AuthService', 'SyncRevocations')
  @UseGuards(InternalTokenGuard)
  async syncRevocations(): Promise<{ last_seq: number }> {
    return { last_seq: await this.revocations.syncNow() };
  }

  @GrpcMethod('AuthService', 'WatchInvalidations')
  @UseGuards(InternalTokenGuard)
  watchInvalidations(): Observable<InvalidationMessage> {
    return this.invalidations.watch();
  }
}
