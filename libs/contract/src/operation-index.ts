import { FLAG_OPERATIONS } from './flags';
import { ENTITLEMENT_OPERATIONS, INTERNAL_QUOTA_OPERATIONS, PLAN_OPERATIONS } from './plans';
import { FEDERATION_OPERATIONS } from './federation';
import { INTERNAL_SAML_OPERATIONS, SAML_OPERATIONS } from './saml';
import {
  APP_OPERATIONS,
  SCOPE_OPERATIONS,
  SERVICE_ACCOUNT_OPERATIONS,
  TOKEN_EVENT_OPERATIONS,
} from './registry';
import { KEY_OPERATIONS, KEY_SET_OPERATIONS } from './keys';
import { IMPERSONATION_POLICY_OPERATIONS, TENANT_USER_OPERATIONS } from './users';
import { JOB_OPERATIONS, JOB_WORKER_OPERATIONS } from './jobs';
import { WEBHOOK_OPERATIONS } from './webhooks';
import { MASKING_OPERATIONS } from './masking';
import { CONTROL_PLANE_PROBE_OPERATIONS, DEFINITION_FEED_OPERATIONS } from './platform';
import { RATE_LIMIT_OPERATIONS } from './rate-limits';
import { SECRET_OPERATIONS, SECRETS_ADMIN_OPERATIONS } from './secrets';
import { INTERNAL_APP_LOGIN_OPERATIONS, INTERNAL_AUTHORIZE_OPERATIONS, SESSION_OPERATIONS } from './login';
import { INTERNAL_OAUTH_OPERATIONS, REVOCATION_FEED_OPERATIONS } from './oauth';
import { INTERNAL_USERINFO_OPERATIONS } from './openid-connect';
import { INTERNAL_LOGOUT_OPERATIONS } from './logout';
import { INTERNAL_DEVICE_OPERATIONS } from './device';
import {
  ADMIN_AUDIT_OPERATIONS,
  AUDIT_CHECKPOINT_OPERATIONS,
  AUDIT_RECORD_OPERATIONS,
  CROSS_TENANT_REFUSAL_OPERATIONS,
} from './audit';
import { SCIM_OPERATIONS } from './scim';
import type { Operation } from './operation-table';

/**
 * Every operation table, by feature: the control plane implements each entry once (a test pairs
 * them), the backend relays the public ones.
 */
export const OPERATION_TABLES: Readonly<Record<string, Readonly<Record<string, Operation>>>> = {
  flags: FLAG_OPERATIONS,
  plans: PLAN_OPERATIONS,
  entitlements: ENTITLEMENT_OPERATIONS,
  internalQuotas: INTERNAL_QUOTA_OPERATIONS,
  apps: APP_OPERATIONS,
  scopes: SCOPE_OPERATIONS,
  tokenEvents: TOKEN_EVENT_OPERATIONS,
  serviceAccounts: SERVICE_ACCOUNT_OPERATIONS,
  keys: KEY_OPERATIONS,
  keySet: KEY_SET_OPERATIONS,
  tenantUsers: TENANT_USER_OPERATIONS,
  impersonationPolicies: IMPERSONATION_POLICY_OPERATIONS,
  webhooks: WEBHOOK_OPERATIONS,
  jobs: JOB_OPERATIONS,
  jobWorkers: JOB_WORKER_OPERATIONS,
  rateLimits: RATE_LIMIT_OPERATIONS,
  definitionFeed: DEFINITION_FEED_OPERATIONS,
  masking: MASKING_OPERATIONS,
  secrets: SECRET_OPERATIONS,
  secretsAdmin: SECRETS_ADMIN_OPERATIONS,
  internalAppLogin: INTERNAL_APP_LOGIN_OPERATIONS,
  internalAuthorize: INTERNAL_AUTHORIZE_OPERATIONS,
  sessions: SESSION_OPERATIONS,
  internalUserInfo: INTERNAL_USERINFO_OPERATIONS,
  internalLogout: INTERNAL_LOGOUT_OPERATIONS,
  internalOAuth: INTERNAL_OAUTH_OPERATIONS,
  internalDevice: INTERNAL_DEVICE_OPERATIONS,
  revocationFeed: REVOCATION_FEED_OPERATIONS,
  controlPlaneProbes: CONTROL_PLANE_PROBE_OPERATIONS,
  auditRecords: AUDIT_RECORD_OPERATIONS,
  adminAudit: ADMIN_AUDIT_OPERATIONS,
  auditCheckpoint: AUDIT_CHECKPOINT_OPERATIONS,
  crossTenantRefusals: CROSS_TENANT_REFUSAL_OPERATIONS,
  scim: SCIM_OPERATIONS,
  federation: FEDERATION_OPERATIONS,
  saml: SAML_OPERATIONS,
  internalSaml: INTERNAL_SAML_OPERATIONS,
};

/** Every entry of every table. */
export const allOperations = (): Operation[] =>
  Object.values(OPERATION_TABLES).flatMap((table) => Object.values(table));
