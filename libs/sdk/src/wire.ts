import type {
  ActiveIntrospectionDto,
  AuditCheckpointDto,
  AuditInclusionProofDto,
  AuditRecordDto,
  AuditRecordPageDto,
  AuditVerificationDto,
  EmitAuditEventDto,
  ApplicationDto,
  DefinedScopeDto,
  InactiveIntrospectionDto,
  MeDto,
  RegisterApplicationDto,
  RegisteredApplicationDto,
  RotatedSecretDto,
  ScopeDto,
  ClaimedJobDto,
  JobDto,
  JobHeartbeatAnswerDto,
  JobLogPageDto,
  JobPageDto,
  JobTransitionPageDto,
  SubmitJobDto,
  SecretMetadataDto,
  SecretNamesPageDto,
  SecretsRewrapDto,
  SecretValueDto,
  SecretVersionDto,
  TokenResponseDto,
} from '@platform/contract';
import type { AppType } from '@platform/domain';

/**
 * Shapes as they travel on the wire (snake_case, times as ISO 8601 UTC strings): the platform's
 * own DTOs, imported as types only, so the SDK and the server cannot drift.
 */

export type { AppType };

/** RFC 6749 section 5.1. */
export type TokenResponse = TokenResponseDto;

/** RFC 7662. An expired, revoked or unknown token is exactly `{ active: false }`. */
export type IntrospectionResponse = InactiveIntrospectionDto | ActiveIntrospectionDto;

/** The registration body; the server validates `app_type`, the SDK narrows it for its callers. */
export type RegisterAppRequest = RegisterApplicationDto & { app_type: AppType };

/** An application as the registry shows it: never a secret. */
export type Application = ApplicationDto;

/** The registration answer: the secret is shown this once (never for `spa` apps). */
export type RegisteredApplication = RegisteredApplicationDto;

/** The rotation answer: the new secret, shown this once; the old one already fails. */
export type RotatedSecret = RotatedSecretDto;

/** A scope of the listing (standard or custom). */
export type ScopeDefinition = ScopeDto;

/** A newly defined custom scope. */
export type DefinedScope = DefinedScopeDto;

/** The caller as the platform sees its token (`GET /v1/me`). */
export type Me = MeDto;

/** An audit record to write; the actor is the caller, the tenant the one asked for. */
export type AuditEmission = EmitAuditEventDto;

/** One link of the audit hash chain. */
export type AuditRecord = AuditRecordDto;

/** One page of the audit log, oldest first; `next_after` is the cursor of the next. */
export type AuditRecordPage = AuditRecordPageDto;

/** The verdict of a chain verification: the first record that does not verify, if any. */
export type AuditVerification = AuditVerificationDto;

/** The latest signed tree head of the audit log. */
export type AuditCheckpoint = AuditCheckpointDto;

/** The audit path of one record to the latest checkpoint. */
export type AuditInclusionProof = AuditInclusionProofDto;

/** A version as written: never its value. */
export type SecretVersion = SecretVersionDto;
export type SecretValue = SecretValueDto;
export type SecretMetadata = SecretMetadataDto;
export type SecretNamesPage = SecretNamesPageDto;
export type SecretsRewrap = SecretsRewrapDto;

/** A job, shaped as a google.longrunning Operation (docs/jobs.md). */
export type Job = Omit<JobDto, 'state'> & {
  state: 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLING' | 'CANCELLED' | 'TIMED_OUT';
};
export type JobSubmission = SubmitJobDto;
export type JobPage = JobPageDto;
export type JobLogPage = JobLogPageDto;
export type JobTransitionPage = JobTransitionPageDto;
export type ClaimedJob = ClaimedJobDto;
export type JobHeartbeatAnswer = JobHeartbeatAnswerDto;
