/**
 * Typed outcomes of the authorization RPCs that are not token failures (those stay
 * `SidecarError`): a malformed request, or a refusal. `grpc/status-mapper.ts` translates both;
 * a refusal that came from a policy decision carries its id and deciding policies, which the
 * mapper sends as trailing metadata. Messages never contain a token.
 */
export type AuthorizationErrorCode =
  /** Missing or malformed action, principal, tenant or candidate policy. */
  | 'invalid_argument'
  /** The policies (or tenant isolation) refused. */
  | 'permission_denied'
  /** What the request names does not exist (a rate limit rule to reset). */
  | 'not_found'
  /** What the request names is not in a state that allows it (a job already ended). */
  | 'failed_precondition';

export interface RefusedDecision {
  decisionId: string;
  decidedBy: readonly string[];
}

export class AuthorizationError extends Error {
  override readonly name = 'AuthorizationError';
  constructor(
    readonly code: AuthorizationErrorCode,
    message: string,
    /** Set for refusals of a policy decision. */
    readonly decision?: RefusedDecision,
  ) {
    super(message);
  }
}

export const invalidArgument = (message: string): AuthorizationError =>
  new AuthorizationError('invalid_argument', message);
