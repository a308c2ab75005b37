/** The meters the platform counts itself; a plan's quota on one limits the tenant (docs/plans.md). */
export const PLATFORM_METERS = {
  /** Tokens issued at the token endpoint to the apps bound to the tenant. */
  tokensIssued: 'tokens_issued',
  /** Jobs submitted in the tenant (REST, SDK or the sidecar). */
  jobsSubmitted: 'jobs_submitted',
  /** Secret values stored in the tenant: each write of a secret, a new one or a new version. */
  secretsStored: 'secrets_stored',
  /** Calls of the tenant's API operations (the routes a tenant's permission opens). */
  apiCalls: 'api_calls',
} as const;

export type PlatformMeter = (typeof PLATFORM_METERS)[keyof typeof PLATFORM_METERS];

/**
 * Counts the platform's own use against the tenant's quota: `take` consumes before the work and
 * answers how to give the units back if the work then fails; a hard quota used up throws
 * `QuotaExhaustedError`. A tenant without a quota on the meter costs a map lookup.
 */
export interface UsageMeter {
  take(tenant: string, meter: PlatformMeter, units?: number): Promise<() => Promise<void>>;
}

/** The give-back of a take that counted nothing (no meter, or no quota on it). */
export const noUnitsTaken = async (): Promise<void> => undefined;
