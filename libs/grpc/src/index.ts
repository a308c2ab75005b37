import * as grpc from '@grpc/grpc-js';
import { loadSync, type Options } from '@grpc/proto-loader';
import { correlationInterceptor } from './correlation';
import type { ProtoGrpcType as AuthProto } from './generated/auth';
import type { ProtoGrpcType as PolicyProto } from './generated/policy';
import type { ProtoGrpcType as TenantProto } from './generated/tenant';
import type { ProtoGrpcType as AuditProto } from './generated/audit';
import type { ProtoGrpcType as MaskingProto } from './generated/masking';
import type { ProtoGrpcType as RateLimitProto } from './generated/ratelimit';
import type { ProtoGrpcType as FlagProto } from './generated/flags';
import type { ProtoGrpcType as SecretProto } from './generated/secrets';
import type { ProtoGrpcType as JobProto } from './generated/jobs';
import type { ProtoGrpcType as EntitlementProto } from './generated/entitlements';
import type { ProtoGrpcType as QuotaProto } from './generated/quotas';
import type { AuditRecord__Output } from './generated/platform/audit/v1/AuditRecord';
import type { AuditServiceClient } from './generated/platform/audit/v1/AuditService';
import type { EmitAuditEventRequest as EmitAuditEventRequestMessage } from './generated/platform/audit/v1/EmitAuditEventRequest';
import type { QueryAuditRequest as QueryAuditRequestMessage } from './generated/platform/audit/v1/QueryAuditRequest';
import type { QueryAuditResponse__Output } from './generated/platform/audit/v1/QueryAuditResponse';
import type { Actor__Output } from './generated/platform/auth/v1/Actor';
import type { AuthorizeRequest as AuthorizeRequestMessage } from './generated/platform/auth/v1/AuthorizeRequest';
import type { AuthorizeResponse__Output } from './generated/platform/auth/v1/AuthorizeResponse';
import type { AuthServiceClient } from './generated/platform/auth/v1/AuthService';
import type { DenyListEntry__Output } from './generated/platform/auth/v1/DenyListEntry';
import type { JsonWebKey__Output } from './generated/platform/auth/v1/JsonWebKey';
import type { KeysChanged__Output } from './generated/platform/auth/v1/KeysChanged';
import type { SeqAdvanced__Output } from './generated/platform/auth/v1/SeqAdvanced';
import type { StreamReady__Output } from './generated/platform/auth/v1/StreamReady';
import type { TokenClaims__Output } from './generated/platform/auth/v1/TokenClaims';
import type { DryRunRequest as DryRunRequestMessage } from './generated/platform/policy/v1/DryRunRequest';
import type { EvaluateRequest as EvaluateRequestMessage } from './generated/platform/policy/v1/EvaluateRequest';
import type { EvaluateResponse__Output } from './generated/platform/policy/v1/EvaluateResponse';
import type { Policy } from './generated/platform/policy/v1/Policy';
import type { PolicyServiceClient } from './generated/platform/policy/v1/PolicyService';
import type { Principal } from './generated/platform/policy/v1/Principal';
import type { ResolveTenantResponse__Output } from './generated/platform/tenant/v1/ResolveTenantResponse';
import type { TenantServiceClient } from './generated/platform/tenant/v1/TenantService';
import type { ValidateIsolationRequest as ValidateIsolationRequestMessage } from './generated/platform/tenant/v1/ValidateIsolationRequest';
import type { ValidateIsolationResponse__Output } from './generated/platform/tenant/v1/ValidateIsolationResponse';
import type { EvaluateFlagRequest__Output } from './generated/platform/flags/v1/EvaluateFlagRequest';
import type {
  EvaluateFlagResponse,
  EvaluateFlagResponse__Output,
} from './generated/platform/flags/v1/EvaluateFlagResponse';
import type { FlagServiceClient } from './generated/platform/flags/v1/FlagService';
import type { FlagValue__Output } from './generated/platform/flags/v1/FlagValue';
import type { ResolveSecretRequest__Output } from './generated/platform/secrets/v1/ResolveSecretRequest';
import type {
  ResolveSecretResponse,
  ResolveSecretResponse__Output,
} from './generated/platform/secrets/v1/ResolveSecretResponse';
import type { SecretServiceClient } from './generated/platform/secrets/v1/SecretService';
import type { Job, Job__Output } from './generated/platform/jobs/v1/Job';
import type { JobLogPage__Output } from './generated/platform/jobs/v1/JobLogPage';
import type { GetJobLogsRequest__Output } from './generated/platform/jobs/v1/GetJobLogsRequest';
import type { GetJobRequest__Output } from './generated/platform/jobs/v1/GetJobRequest';
import type { JobServiceClient } from './generated/platform/jobs/v1/JobService';
import type { ListJobsRequest__Output } from './generated/platform/jobs/v1/ListJobsRequest';
import type { SubmitJobRequest__Output } from './generated/platform/jobs/v1/SubmitJobRequest';
import type { JobTransition__Output } from './generated/platform/jobs/v1/JobTransition';
import type { ListJobsResponse__Output } from './generated/platform/jobs/v1/ListJobsResponse';
import type { SubmitJobResponse__Output } from './generated/platform/jobs/v1/SubmitJobResponse';
import type { CheckRateLimitRequest__Output } from './generated/platform/ratelimit/v1/CheckRateLimitRequest';
import type {
  CheckRateLimitResponse,
  CheckRateLimitResponse__Output,
} from './generated/platform/ratelimit/v1/CheckRateLimitResponse';
import type { RateLimitServiceClient } from './generated/platform/ratelimit/v1/RateLimitService';
import type { ResetRateLimitRequest__Output } from './generated/platform/ratelimit/v1/ResetRateLimitRequest';
import type { MaskingOptions__Output } from './generated/platform/masking/v1/MaskingOptions';
import type { MaskingServiceClient } from './generated/platform/masking/v1/MaskingService';
import type { MaskRequest__Output } from './generated/platform/masking/v1/MaskRequest';
import type { MaskResponse__Output } from './generated/platform/masking/v1/MaskResponse';
import type { MaskStringRequest__Output } from './generated/platform/masking/v1/MaskStringRequest';
import type { MaskStringResponse__Output } from './generated/platform/masking/v1/MaskStringResponse';
import type { CheckEntitlementRequest__Output } from './generated/platform/entitlements/v1/CheckEntitlementRequest';
import type {
  CheckEntitlementResponse,
  CheckEntitlementResponse__Output,
} from './generated/platform/entitlements/v1/CheckEntitlementResponse';
import type { EntitlementServiceClient } from './generated/platform/entitlements/v1/EntitlementService';
import type { ListEntitlementsRequest__Output } from './generated/platform/entitlements/v1/ListEntitlementsRequest';
import type {
  ListEntitlementsResponse,
  ListEntitlementsResponse__Output,
} from './generated/platform/entitlements/v1/ListEntitlementsResponse';
import type { ConsumeQuotaRequest__Output } from './generated/platform/quotas/v1/ConsumeQuotaRequest';
import type { GetQuotaUsageRequest__Output } from './generated/platform/quotas/v1/GetQuotaUsageRequest';
import type { QuotaAnswer, QuotaAnswer__Output } from './generated/platform/quotas/v1/QuotaAnswer';
import type { QuotaServiceClient } from './generated/platform/quotas/v1/QuotaService';

export * from './correlation';
export * from './retry-info';

import { PROTO_ROOT } from './proto-root';

export { PROTO_ROOT };

export const AUTH_PROTO = 'platform/auth/v1/auth.proto';
export const POLICY_PROTO = 'platform/policy/v1/policy.proto';
export const TENANT_PROTO = 'platform/tenant/v1/tenant.proto';
export const AUDIT_PROTO = 'platform/audit/v1/audit.proto';
export const MASKING_PROTO = 'platform/masking/v1/masking.proto';
export const RATE_LIMIT_PROTO = 'platform/ratelimit/v1/ratelimit.proto';
export const FLAG_PROTO = 'platform/flags/v1/flags.proto';
export const SECRET_PROTO = 'platform/secrets/v1/secrets.proto';
export const JOB_PROTO = 'platform/jobs/v1/jobs.proto';
export const ENTITLEMENT_PROTO = 'platform/entitlements/v1/entitlements.proto';
export const QUOTA_PROTO = 'platform/quotas/v1/quotas.proto';

export const AUTH_SERVICE_NAME = 'platform.auth.v1.AuthService';
export const POLICY_SERVICE_NAME = 'platform.policy.v1.PolicyService';
export const TENANT_SERVICE_NAME = 'platform.tenant.v1.TenantService';
export const AUDIT_SERVICE_NAME = 'platform.audit.v1.AuditService';
export const MASKING_SERVICE_NAME = 'platform.masking.v1.MaskingService';
export const RATE_LIMIT_SERVICE_NAME = 'platform.ratelimit.v1.RateLimitService';
export const FLAG_SERVICE_NAME = 'platform.flags.v1.FlagService';
export const SECRET_SERVICE_NAME = 'platform.secrets.v1.SecretService';
export const JOB_SERVICE_NAME = 'platform.jobs.v1.JobService';
export const ENTITLEMENT_SERVICE_NAME = 'platform.entitlements.v1.EntitlementService';
export const QUOTA_SERVICE_NAME = 'platform.quotas.v1.QuotaService';

/** Field names stay snake_case as written in the .proto files; int64 arrives as number. */
export const PROTO_LOADER_OPTIONS: Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
};

/**
 * One .proto file, or several loaded together: a server hosting several services loads them at
 * once, so the well-known types they import (google.protobuf.Duration, Timestamp, Value) make one
 * file descriptor that server reflection can describe, not one per service under the same name.
 */
export function loadProto(file: string | string[]) {
  return loadSync(file, PROTO_LOADER_OPTIONS);
}

/** The internal token travels as gRPC metadata under the HTTP header's name. */
export { INTERNAL_TOKEN_HEADER as INTERNAL_TOKEN_METADATA } from '@platform/internal';
/** Trailing metadata of a PERMISSION_DENIED answer: the decision id and the deciding policies. */
export const DECISION_ID_METADATA = 'x-decision-id';
/** Comma-separated policy ids (`token-scope`, `tenant-isolation`, ...); absent for the default deny. */
export const DECIDED_BY_METADATA = 'x-decided-by';

/*
 * Message and client types are generated from proto/ (`npm run proto:generate`, checked for
 * drift by generated-types.spec.ts). Messages a caller builds are the generated input types
 * (fields optional); messages received are the `__Output` types (with `defaults: true` every
 * scalar field is present).
 */
export type TokenClaims = TokenClaims__Output;
/** An actor of TokenClaims' `act` chain (RFC 8693 section 4.1); `client_id` '' when not named. */
export type ActorMessage = Actor__Output;
export type JsonWebKeyMessage = JsonWebKey__Output;
export type AuthorizeRequest = AuthorizeRequestMessage;
export type AuthorizeResponse = AuthorizeResponse__Output;
/** A `DenyListEntry` of the invalidation stream; `created_at` in Unix seconds. */
export type DenyListEntryMessage = DenyListEntry__Output;

/**
 * One message of `WatchInvalidations`, narrowed to what proto-loader decodes with
 * `oneofs: true`: `change` names the field of the oneof that is set. `seq` is the sidecar's
 * applied revocation seq at that moment.
 */
export type InvalidationMessage = { seq: number } & (
  | { change: 'ready'; ready: StreamReady__Output }
  | { change: 'revocation'; revocation: DenyListEntry__Output }
  | { change: 'seq_advanced'; seq_advanced: SeqAdvanced__Output }
  | { change: 'keys_changed'; keys_changed: KeysChanged__Output }
);

/** The `change` field set in an InvalidationMessage. */
export type InvalidationChange = InvalidationMessage['change'];

export type { AuthServiceClient };

export function createAuthServiceClient(address: string, options: grpc.ChannelOptions = {}) {
  return connect(servicesOf<AuthProto>(AUTH_PROTO).platform.auth.v1.AuthService, address, options);
}

export type PrincipalMessage = Principal;
export type EvaluateRequest = EvaluateRequestMessage;
export type PolicyMessage = Policy;
export type DryRunRequest = DryRunRequestMessage;
export type EvaluateResponse = EvaluateResponse__Output;
export type { PolicyServiceClient };

export function createPolicyServiceClient(address: string, options: grpc.ChannelOptions = {}) {
  return connect(servicesOf<PolicyProto>(POLICY_PROTO).platform.policy.v1.PolicyService, address, options);
}

export type ResolveTenantResponse = ResolveTenantResponse__Output;
export type ValidateIsolationRequest = ValidateIsolationRequestMessage;
export type ValidateIsolationResponse = ValidateIsolationResponse__Output;
export type { TenantServiceClient };

export function createTenantServiceClient(address: string, options: grpc.ChannelOptions = {}) {
  return connect(servicesOf<TenantProto>(TENANT_PROTO).platform.tenant.v1.TenantService, address, options);
}

export type AuditRecordMessage = AuditRecord__Output;
export type EmitAuditEventRequest = EmitAuditEventRequestMessage;
export type QueryAuditRequest = QueryAuditRequestMessage;
export type QueryAuditResponse = QueryAuditResponse__Output;
export type { AuditServiceClient };

export function createAuditServiceClient(address: string, options: grpc.ChannelOptions = {}) {
  return connect(servicesOf<AuditProto>(AUDIT_PROTO).platform.audit.v1.AuditService, address, options);
}

/** The services of `protoFile`, typed by its package root generated with the same loader options. */
function servicesOf<PackageRoot>(protoFile: string): PackageRoot {
  return grpc.loadPackageDefinition(loadProto(protoFile)) as unknown as PackageRoot;
}

/** An insecure (loopback) client of a generated service constructor, carrying the correlation id. */
function connect<Client extends grpc.Client>(
  Service: new (
    address: string,
    credentials: grpc.ChannelCredentials,
    options?: grpc.ClientOptions,
  ) => Client,
  address: string,
  options: grpc.ChannelOptions,
): Client {
  return new Service(address, grpc.credentials.createInsecure(), {
    ...options,
    interceptors: [correlationInterceptor],
  });
}
export * from './token-claims';

export type MaskingOptionsMessage = MaskingOptions__Output;
export type MaskStringRequest = MaskStringRequest__Output;
export type MaskStringResult = MaskStringResponse__Output;
export type MaskRequest = MaskRequest__Output;
export type MaskResult = MaskResponse__Output;
export type { MaskingServiceClient };

export function createMaskingServiceClient(address: string, options: grpc.ChannelOptions = {}) {
  return connect(
    servicesOf<MaskingProto>(MASKING_PROTO).platform.masking.v1.MaskingService,
    address,
    options,
  );
}

export type CheckRateLimitRequest = CheckRateLimitRequest__Output;
/** What the sidecar answers (built: enums by name) and what a client reads. */
export type CheckRateLimitAnswer = CheckRateLimitResponse;
export type CheckRateLimitResult = CheckRateLimitResponse__Output;
export type ResetRateLimitRequest = ResetRateLimitRequest__Output;
export type { RateLimitServiceClient };

export function createRateLimitServiceClient(address: string, options: grpc.ChannelOptions = {}) {
  return connect(
    servicesOf<RateLimitProto>(RATE_LIMIT_PROTO).platform.ratelimit.v1.RateLimitService,
    address,
    options,
  );
}

export type EvaluateFlagRequest = EvaluateFlagRequest__Output;
export type EvaluateFlagAnswer = EvaluateFlagResponse;
export type EvaluateFlagResult = EvaluateFlagResponse__Output;
export type FlagValueMessage = FlagValue__Output;
export type { FlagServiceClient };

export function createFlagServiceClient(address: string, options: grpc.ChannelOptions = {}) {
  return connect(servicesOf<FlagProto>(FLAG_PROTO).platform.flags.v1.FlagService, address, options);
}

export type ResolveSecretRequest = ResolveSecretRequest__Output;
export type ResolveSecretAnswer = ResolveSecretResponse;
export type ResolveSecretResult = ResolveSecretResponse__Output;
export type { SecretServiceClient };

export function createSecretServiceClient(address: string, options: grpc.ChannelOptions = {}) {
  return connect(servicesOf<SecretProto>(SECRET_PROTO).platform.secrets.v1.SecretService, address, options);
}

/** What the sidecar answers for a job (built) and what a client reads. */
export type JobMessage = Job;
export type SubmitJobRequest = SubmitJobRequest__Output;
export type GetJobRequest = GetJobRequest__Output;
export type ListJobsRequest = ListJobsRequest__Output;
export type GetJobLogsRequest = GetJobLogsRequest__Output;
export type JobResult = Job__Output;
export type JobTransitionResult = JobTransition__Output;
export type JobLogPageResult = JobLogPage__Output;
export type ListJobsResult = ListJobsResponse__Output;
export type SubmitJobResult = SubmitJobResponse__Output;
export type { JobServiceClient };

export function createJobServiceClient(address: string, options: grpc.ChannelOptions = {}) {
  return connect(servicesOf<JobProto>(JOB_PROTO).platform.jobs.v1.JobService, address, options);
}

export type CheckEntitlementRequest = CheckEntitlementRequest__Output;
export type ListEntitlementsRequest = ListEntitlementsRequest__Output;
/** What the sidecar answers (built) and what a client reads. */
export type CheckEntitlementAnswer = CheckEntitlementResponse;
export type CheckEntitlementResult = CheckEntitlementResponse__Output;
export type ListEntitlementsAnswer = ListEntitlementsResponse;
export type ListEntitlementsResult = ListEntitlementsResponse__Output;
export type { EntitlementServiceClient };

export function createEntitlementServiceClient(address: string, options: grpc.ChannelOptions = {}) {
  return connect(
    servicesOf<EntitlementProto>(ENTITLEMENT_PROTO).platform.entitlements.v1.EntitlementService,
    address,
    options,
  );
}

export type ConsumeQuotaRequest = ConsumeQuotaRequest__Output;
export type GetQuotaUsageRequest = GetQuotaUsageRequest__Output;
/** What the sidecar answers for a quota (built) and what a client reads. */
export type QuotaAnswerMessage = QuotaAnswer;
export type QuotaResult = QuotaAnswer__Output;
export type { QuotaServiceClient };

export function createQuotaServiceClient(address: string, options: grpc.ChannelOptions = {}) {
  return connect(servicesOf<QuotaProto>(QUOTA_PROTO).platform.quotas.v1.QuotaService, address, options);
}
