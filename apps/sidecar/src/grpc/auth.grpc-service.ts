import type { sendUnaryData, ServerUnaryCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import { Injectable, Logger } from '@nestjs/common';
import { isAction } from '@platform/domain';
import type { AuthorizeRequest, AuthorizeResponse, JsonWebKeyMessage, TokenClaims } from '@platform/grpc';
import type { JWK } from 'jose';
import { AuthorizationError, invalidArgument } from '../authorization/authorization.error';
import { PolicyDecider, type Decision } from '../authorization/policy-decider';
import { principalOfClaims } from '../authorization/principals';
import { ControlPlaneApi } from '../control-plane/control-plane-api';
import { SidecarError } from '../errors';
import { KeyCache } from '../keys/key-cache';
import { RevocationSync } from '../revocation/revocation-sync';
import { failCall } from './call-failure';
import { InternalTokenVerifier } from './internal-token.verifier';
import { InvalidationStreams } from './invalidation-streams';
import { TokenClaimsReader } from './token-claims.reader';

type Empty = Record<string, never>;
type TokenRequest = { token?: string };

/**
 * `platform.auth.v1.AuthService` as plain grpc-js unary handlers (no RxJS, no per-call
 * wrappers): each one calls a provider and answers through `toGrpcStatus` on failure. The one
 * streaming method, WatchInvalidations, lives in InvalidationStreams.
 */
@Injectable()
export class AuthGrpcService {
  private readonly logger = new Logger('AuthService');

  constructor(
    private readonly tokens: TokenClaimsReader,
    private readonly decider: PolicyDecider,
    private readonly keys: KeyCache,
    private readonly revocations: RevocationSync,
    private readonly controlPlane: ControlPlaneApi,
    private readonly internalToken: InternalTokenVerifier,
    private readonly invalidations: InvalidationStreams,
  ) {}

  /** The handlers, keyed by the method names of the .proto. */
  implementation(): UntypedServiceImplementation {
    return {
      ValidateToken: this.validateToken,
      Authorize: this.authorize,
      RevokeToken: this.revokeToken,
      GetJwks: this.getJwks,
      SyncRevocations: this.syncRevocations,
      WatchInvalidations: this.invalidations.watch,
    };
  }

  private readonly validateToken = (
    call: ServerUnaryCall<TokenRequest, { claims: TokenClaims }>,
    callback: sendUnaryData<{ claims: TokenClaims }>,
  ): void => {
    this.tokens.read(call.request.token ?? '').then(
      (claims) => callback(null, { claims }),
      (error: unknown) => failCall(this.logger, 'ValidateToken', callback, error),
    );
  };

  /**
   * The hot path of every protected backend request: one token validation (as ValidateToken),
   * one in-memory policy evaluation. Refused: PERMISSION_DENIED naming the decision.
   */
  private readonly authorize = (
    call: ServerUnaryCall<Partial<AuthorizeRequest>, AuthorizeResponse>,
    callback: sendUnaryData<AuthorizeResponse>,
  ): void => {
    const { token = '', action = '', resource_tenant: tenant = '' } = call.request;
    if (!isAction(action)) {
      return failCall(
        this.logger,
        'Authorize',
        callback,
        invalidArgument('action must be a scope-shaped action such as jobs.read'),
      );
    }
    this.tokens
      .read(token)
      .then((claims): AuthorizeResponse => {
        const decision = this.decider.decide(
          { principal: principalOfClaims(claims), action, resourceTenant: tenant || undefined },
          { enforced: true },
        );
        if (decision.effect !== 'allow') throw refusal(action, decision);
        return { claims, decided_by: decision.decidedBy, decision_id: decision.decisionId };
      })
      .then(
        (response) => callback(null, response),
        (error: unknown) => failCall(this.logger, 'Authorize', callback, error),
      );
  };

  private readonly revokeToken = (
    call: ServerUnaryCall<TokenRequest, Empty>,
    callback: sendUnaryData<Empty>,
  ): void => {
    const run = async (): Promise<Empty> => {
      this.internalToken.assert(call.metadata);
      const token = call.request.token ?? '';
      if (token === '') throw new SidecarError('token_missing', 'token is empty');
      await this.controlPlane.revokeAccessToken(token);
      try {
        await this.revocations.syncNow();
      } catch (error) {
        // Persisted by the control plane: the stream or the next poll applies it here.
        this.logger.warn(`revoked, but the local sync failed: ${(error as Error).message}`);
      }
      return {};
    };
    run().then(
      (response) => callback(null, response),
      (error: unknown) => failCall(this.logger, 'RevokeToken', callback, error),
    );
  };

  private readonly getJwks = (
    _call: ServerUnaryCall<Empty, { keys: JsonWebKeyMessage[] }>,
    callback: sendUnaryData<{ keys: JsonWebKeyMessage[] }>,
  ): void => {
    callback(null, { keys: this.keys.publicKeys().map(toJsonWebKeyMessage) });
  };

  private readonly syncRevocations = (
    call: ServerUnaryCall<Empty, { last_seq: number }>,
    callback: sendUnaryData<{ last_seq: number }>,
  ): void => {
    const run = async (): Promise<{ last_seq: number }> => {
      this.internalToken.assert(call.metadata);
      return { last_seq: await this.revocations.syncNow() };
    };
    run().then(
      (response) => callback(null, response),
      (error: unknown) => failCall(this.logger, 'SyncRevocations', callback, error),
    );
  };
}

/** PERMISSION_DENIED naming the decision id and the policies that decided. */
function refusal(action: string, decision: Decision): AuthorizationError {
  const by = decision.decidedBy.length > 0 ? decision.decidedBy.join(', ') : 'no policy (default deny)';
  return new AuthorizationError(
    'permission_denied',
    `denied ${action} (decision ${decision.decisionId}; decided by ${by}): ${decision.reason}`,
    decision,
  );
}

function toJsonWebKeyMessage(jwk: JWK): JsonWebKeyMessage {
  return {
    kty: jwk.kty ?? '',
    use: jwk.use ?? '',
    alg: jwk.alg ?? '',
    kid: jwk.kid ?? '',
    n: jwk.n ?? '',
    e: jwk.e ?? '',
  };
}
