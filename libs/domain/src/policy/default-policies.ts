import { GLOBAL_ADMIN_ROLE } from '../admin';
import type { Policy } from './policy';

/**
 * The default role bundle, in terms of the spec's scopes (docs/roles.md shows the same table).
 * Cross-tenant access is denied explicitly for every role but global_admin, so no later allow
 * can open it by mistake.
 */
export const DEFAULT_POLICIES: readonly Policy[] = [
  {
    id: 'global-admin-all',
    description: 'global_admin may do anything in any tenant',
    effect: 'allow',
    roles: [GLOBAL_ADMIN_ROLE],
    actions: ['*'],
    tenants: 'any',
  },
  {
    id: 'tenant-isolation',
    description: 'nobody but global_admin reaches into another tenant or a platform-wide resource',
    effect: 'deny',
    roles: ['tenant_admin', 'user', 'viewer'],
    actions: ['*'],
    tenants: 'other',
  },
  {
    id: 'tenant-admin-own-tenant',
    description:
      'tenant_admin manages jobs, files, secrets, audit, users, SCIM provisioning, workload federation and SAML sign-in of its tenant',
    effect: 'allow',
    roles: ['tenant_admin'],
    // jobs.read and jobs.write, not jobs.*: working jobs (jobs.work) is for service apps only.
    actions: [
      'jobs.read',
      'jobs.write',
      'files.*',
      'secrets.*',
      'audit.write',
      'audit.read',
      'users.*',
      'scim.*',
      'federation.*',
      'saml.*',
      'quotas.consume',
    ],
    tenants: 'own',
  },
  {
    id: 'platform-services-own-tenant',
    description:
      'every role checks rate limits, evaluates flags, masks data and reads entitlements and quotas in its tenant',
    effect: 'allow',
    roles: ['tenant_admin', 'user', 'viewer'],
    actions: ['ratelimit.check', 'flags.read', 'masking.apply', 'entitlements.read', 'quotas.read'],
    tenants: 'own',
  },
  {
    id: 'user-own-tenant',
    description: 'user works with jobs and files, reads secrets and consumes quotas of its tenant',
    effect: 'allow',
    roles: ['user'],
    actions: [
      'jobs.read',
      'jobs.write',
      'files.read',
      'files.write',
      'secrets.read',
      'users.read',
      'quotas.consume',
    ],
    tenants: 'own',
  },
  {
    id: 'viewer-own-tenant',
    description: 'viewer reads jobs and files of its tenant',
    effect: 'allow',
    roles: ['viewer'],
    actions: ['jobs.read', 'files.read', 'users.read'],
    tenants: 'own',
  },
];
