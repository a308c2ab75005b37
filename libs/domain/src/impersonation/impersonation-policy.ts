/**
 * What a tenant allows of impersonation (docs/tokens.md, "Impersonation"): nothing, tokens that
 * may only read, or tokens with the impersonated user's full rights.
 */
export const IMPERSONATION_MODES = ['disabled', 'read_only', 'full'] as const;
export type ImpersonationMode = (typeof IMPERSONATION_MODES)[number];

/** A tenant that never chose keeps the default: impersonation with the user's full rights. */
export const DEFAULT_IMPERSONATION_MODE: ImpersonationMode = 'full';

export interface ImpersonationPolicyStore {
  /** null when the tenant never chose (DEFAULT_IMPERSONATION_MODE applies). */
  findImpersonationPolicy(tenant: string): Promise<ImpersonationMode | null>;
  putImpersonationPolicy(tenant: string, mode: ImpersonationMode, updatedAt: Date): Promise<void>;
}
