import type { QuotaAnswerDto, QuotaConsumptionDto } from '@platform/contract';
import type { DefinitionChange, RevocationEntry } from '@platform/domain';
import type { DefinitionPage, JsonWebKeySet, RevocationPage } from './control-plane.types';

/**
 * What the sidecar needs from the control plane. The class is the injection token; the HTTP
 * implementation is `HttpControlPlaneClient`, tests provide their own subclass or mock.
 *
 * Every method rejects with a `SidecarError` (`control_plane_unavailable` when it could not be
 * reached or answered 5xx, `control_plane_rejected` for a 4xx or an unreadable answer).
 */
export abstract class ControlPlaneApi {
  /** `GET /api/v1/jwks`. */
  abstract fetchJwks(): Promise<JsonWebKeySet>;
  /** `GET /internal/v1/revocations/active`: the whole live deny-list. */
  abstract fetchActiveRevocations(): Promise<RevocationPage>;
  /** `GET /internal/v1/revocations?after=&limit=`, ascending. */
  abstract fetchRevocationsAfter(afterSeq: number, limit: number): Promise<RevocationPage>;
  /** `GET /internal/v1/definitions?after=&limit=`: definition changes in commit order. */
  abstract fetchDefinitionsAfter(afterSeq: number, limit: number): Promise<DefinitionPage>;
  /** `POST /internal/v1/revocations {token}`: trusted revoke of an access token. */
  abstract revokeAccessToken(token: string): Promise<{ revoked: boolean }>;
  /**
   * `POST /internal/v1/quotas/consume`: the control plane's check-and-consume of a tenant's meter
   * (units 0: a read), on the plans it holds (docs/plans.md, "Counting").
   */
  abstract consumeQuota(consumption: QuotaConsumptionDto): Promise<QuotaAnswerDto>;
  /**
   * A call made for a caller the sidecar already authorized, named in `x-platform-principal`
   * (the audit routes). Answers the status and the JSON body, refusals (4xx) included.
   */
  abstract callAsPrincipal(
    method: 'GET' | 'POST',
    path: string,
    principal: string,
    payload?: unknown,
  ): Promise<{ status: number; body: unknown }>;
  /**
   * `GET /internal/v1/revocations/stream?after=`: yields entries until the stream ends, fails,
   * or `signal` aborts. `onOpen` runs once the stream is accepted.
   */
  abstract streamRevocations(
    afterSeq: number,
    signal: AbortSignal,
    onOpen?: () => void,
  ): AsyncIterable<RevocationEntry>;
  /** `GET /internal/v1/definitions/stream?after=`: the definition changes, as streamRevocations. */
  abstract streamDefinitions(
    afterSeq: number,
    signal: AbortSignal,
    onOpen?: () => void,
  ): AsyncIterable<DefinitionChange>;
}
