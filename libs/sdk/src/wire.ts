import type { components } from './generated/openapi';

/**
 * Shapes as they travel on the wire (snake_case, times as ISO 8601 UTC strings): the schemas of
 * the platform's committed API document (open-api/openapi.json), generated at build time, so the
 * SDK and the server cannot drift.
 */
type Schemas = components['schemas'];

/** `service`, `web`, `spa` or `cli`. */
export type AppType = Schemas['AppType'];

/** RFC 6749 section 5.1. */
export type TokenResponse = Schemas['TokenResponse'];

/** RFC 8628 section 3.2: the device code to poll with, and the user code to enter where it says. */
export type DeviceAuthorizationResponse = Schemas['DeviceAuthorizationResponse'];

/** RFC 7662. An expired, revoked or unknown token is exactly `{ active: false }`. */
export type IntrospectionResponse = Schemas['InactiveIntrospection'] | Schemas['ActiveIntrospection'];

/** The registration body. */
export type RegisterAppRequest = Schemas['ApplicationRegistration'];

/** An application as the registry shows it: never a secret. */
export type Application = Schemas['Application'];

/** What an administrator changes of an app's part in token exchange; every member optional. */
export type ApplicationUpdate = Schemas['ApplicationUpdate'];

/** The registration answer: the secret is shown this once (never for `spa` apps). */
export type RegisteredApplication = Schemas['RegisteredApplication'];

/** The rotation answer: the new secret, shown this once; the old one already fails. */
export type RotatedSecret = Schemas['RotatedSecret'];

/** A scope of the listing (standard or custom). */
export type ScopeDefinition = Schemas['Scope'];

/** A newly defined custom scope. */
export type DefinedScope = Schemas['DefinedScope'];

/**
 * The caller as the platform sees its token (`GET /v1/me`); on an exchanged or impersonation
 * token, `act` (who acts for `sub`) and `impersonation` (`full` or `read_only`) too.
 */
export type Me = Schemas['Me'];

/** The platform's judgement of a token: exactly `{ active: false }` when it is not valid (for the audience named). */
export type TokenValidation = Schemas['ActiveTokenValidation'] | Schemas['InactiveIntrospection'];

/** Who acts for a token's subject (RFC 8693 section 4.1): the current actor, earlier ones nested in `act`. */
export type TokenActor = Schemas['TokenActor'];

/** An audit record to write; the actor is the caller, the tenant the one asked for. */
export type AuditEmission = Schemas['AuditEventEmission'];

/** One link of the audit hash chain. */
export type AuditRecord = Schemas['AuditRecord'];

/** One page of the audit log, oldest first; `next_after` is the cursor of the next. */
export type AuditRecordPage = Schemas['AuditRecordPage'];

/** The verdict of a chain verification: the first record that does not verify, if any. */
export type AuditVerification = Schemas['AuditVerification'];

/** The latest signed tree head of the audit log. */
export type AuditCheckpoint = Schemas['AuditCheckpoint'];

/** The audit path of one record to the latest checkpoint. */
export type AuditInclusionProof = Schemas['AuditInclusionProof'];

/** A version as written: never its value. */
export type SecretVersion = Schemas['SecretVersion'];
export type SecretValue = Schemas['SecretValue'];
export type SecretMetadata = Schemas['SecretMetadata'];
export type SecretNamesPage = Schemas['SecretNamesPage'];
export type SecretsRewrap = Schemas['SecretsRewrap'];

/** A job, shaped as a google.longrunning Operation (docs/jobs.md). */
export type Job = Schemas['Job'];
export type JobSubmission = Schemas['JobSubmission'];
export type JobSubmissionResult = Schemas['JobSubmissionResult'];
export type JobSubmissionResults = Schemas['JobSubmissionResults'];
export type JobPage = Schemas['JobPage'];
export type JobLogPage = Schemas['JobLogPage'];
export type JobTransitionPage = Schemas['JobTransitionPage'];
export type ClaimedJob = Schemas['ClaimedJob'];
export type ClaimedJobs = Schemas['ClaimedJobs'];
export type JobCompletionReport = Schemas['JobCompletionReport'];
export type JobCompletionResult = Schemas['JobCompletionResult'];
export type JobCompletionResults = Schemas['JobCompletionResults'];
export type JobHeartbeatAnswer = Schemas['JobHeartbeatAnswer'];
