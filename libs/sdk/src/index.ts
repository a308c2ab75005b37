export { AdminClient, nextPage, type AppPage, type ListAppsOptions } from './admin-client';
export { AuditClient, type AuditQuery } from './audit-client';
export { systemClock, type Clock } from './clock';
export {
  errorFromResponse,
  OAuthProtocolError,
  PlatformError,
  ProblemError,
  type OAuthErrorBody,
  type ProblemDetails,
} from './errors';
export type { FetchLike } from './fetch';
export { DpopKey, type DpopAlgorithm, type DpopProofOptions } from './dpop';
export { findLink, parseLinkHeader, type Link } from './link-header';
export {
  basicAuthorization,
  OAuthClient,
  type ClientAuthMethod,
  type ImpersonationOptions,
  type OAuthClientOptions,
  type Sleep,
  type TokenExchangeOptions,
} from './oauth-client';
export { PlatformClient, type PlatformClientOptions } from './platform-client';
export { SecretsClient } from './secrets-client';
export { JobsClient, type JobListQuery } from './jobs-client';
export { JobWorker, PermanentJobError, type JobContext, type JobWorkerOptions } from './job-worker';
export { ServiceTokenSource, type ServiceTokenSourceOptions } from './service-token-source';
export { REFRESH_AT_FRACTION, refreshDeadline } from './token-cache';
export type { TokenSource } from './token-source';
export {
  UserTokenSource,
  type RefreshedTokens,
  type RefreshFunction,
  type UserTokens,
  type UserTokenSourceOptions,
} from './user-token-source';
export type * from './wire';
export { PlatformFlagProvider, type PlatformFlagProviderOptions } from './flag-provider';
export {
  EntitlementsClient,
  type EntitlementCheck,
  type EntitlementValue,
  type PlanQuota,
  type TenantEntitlements,
} from './entitlements-client';
export { QuotaExhaustedError, QuotasClient, type QuotaStatus } from './quotas-client';
export type { SidecarClientOptions } from './sidecar';
