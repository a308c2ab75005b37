import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { Sessions1764000000000 } from './1764000000000-sessions';
import { AuditLog1764100000000 } from './1764100000000-audit-log';
import { Webhooks1764200000000 } from './1764200000000-webhooks';
import { Scim1764300000000 } from './1764300000000-scim';
import { ServiceDefinitions1764400000000 } from './1764400000000-service-definitions';
import { Secrets1764500000000 } from './1764500000000-secrets';
import { Jobs1764600000000 } from './1764600000000-jobs';
import { JobLeaseHolder1764700000000 } from './1764700000000-job-lease-holder';
import { CodePointOrder1764800000000 } from './1764800000000-code-point-order';
import { RedirectUriIndex1764937000000 } from './1764937000000-redirect-uri-index';
import { RetentionIndexes1764960000000 } from './1764960000000-retention-indexes';
import { RefreshFamilyStart1764980000000 } from './1764980000000-refresh-family-start';
import { TokenExchange1765000000000 } from './1765000000000-token-exchange';
import { OpenIdConnect1765100000000 } from './1765100000000-openid-connect';
import { LogoutUris1765150000000 } from './1765150000000-logout-uris';
import { DeviceAuthorization1765200000000 } from './1765200000000-device-authorization';
import { Federation1765300000000 } from './1765300000000-federation';
import { Dpop1765400000000 } from './1765400000000-dpop';
import { Saml1765600000000 } from './1765600000000-saml';
import { Quotas1765500000000 } from './1765500000000-quotas';

/** In order. Append new migrations; never edit one that has shipped. */
export const MIGRATIONS = [
  InitialSchema1763800000000,
  Sessions1764000000000,
  AuditLog1764100000000,
  Webhooks1764200000000,
  Scim1764300000000,
  ServiceDefinitions1764400000000,
  Secrets1764500000000,
  Jobs1764600000000,
  JobLeaseHolder1764700000000,
  CodePointOrder1764800000000,
  RedirectUriIndex1764937000000,
  RetentionIndexes1764960000000,
  RefreshFamilyStart1764980000000,
  TokenExchange1765000000000,
  OpenIdConnect1765100000000,
  LogoutUris1765150000000,
  DeviceAuthorization1765200000000,
  Federation1765300000000,
  Dpop1765400000000,
  Quotas1765500000000,
  Saml1765600000000,
];
