import { ApplicationEntity, ApplicationRedirectUriEntity } from './application.entity';
import { AuditChainHeadEntity, AuditCheckpointEntity, AuditRecordEntity } from './audit-record.entity';
import { AuthorizationCodeEntity } from './authorization-code.entity';
import { BackchannelLogoutEntity } from './backchannel-logout.entity';
import { DeviceAuthorizationEntity } from './device-authorization.entity';
import { AssertionUseEntity, FederatedIssuerEntity } from './federation.entity';
import { GroupEntity, GroupMemberEntity } from './group.entity';
import { ImpersonationPolicyEntity } from './impersonation-policy.entity';
import { JobEntity, JobEventEntity } from './job.entity';
import { QuotaConsumptionEntity, QuotaUsageEntity } from './quota.entity';
import { RefreshTokenEntity } from './refresh-token.entity';
import { SamlIdentityProviderEntity, SamlRequestEntity } from './saml.entity';
import { RevocationEntity } from './revocation.entity';
import { ScopeEntity } from './scope.entity';
import { SecretVersionEntity } from './secret-version.entity';
import { ServiceDefinitionEntity, ServiceDefinitionSequenceEntity } from './service-definition.entity';
import { SessionEntity } from './session.entity';
import { SigningKeyEntity } from './signing-key.entity';
import { TokenEventEntity } from './token-event.entity';
import { UserEntity } from './user.entity';
import {
  WebhookAttemptEntity,
  WebhookDeliveryEntity,
  WebhookDispatchCursorEntity,
  WebhookEndpointEntity,
} from './webhook.entity';

export {
  AssertionUseEntity,
  QuotaConsumptionEntity,
  QuotaUsageEntity,
  FederatedIssuerEntity,
  SamlIdentityProviderEntity,
  SamlRequestEntity,
  ApplicationEntity,
  ApplicationRedirectUriEntity,
  AuditChainHeadEntity,
  AuditCheckpointEntity,
  AuditRecordEntity,
  AuthorizationCodeEntity,
  BackchannelLogoutEntity,
  DeviceAuthorizationEntity,
  GroupEntity,
  GroupMemberEntity,
  ImpersonationPolicyEntity,
  JobEntity,
  JobEventEntity,
  RefreshTokenEntity,
  RevocationEntity,
  ScopeEntity,
  SecretVersionEntity,
  ServiceDefinitionEntity,
  ServiceDefinitionSequenceEntity,
  SessionEntity,
  SigningKeyEntity,
  TokenEventEntity,
  UserEntity,
  WebhookAttemptEntity,
  WebhookDeliveryEntity,
  WebhookDispatchCursorEntity,
  WebhookEndpointEntity,
};

/** Every entity, for the DataSource `entities` option. */
export const ENTITIES = [
  ApplicationEntity,
  ApplicationRedirectUriEntity,
  ScopeEntity,
  SigningKeyEntity,
  RevocationEntity,
  TokenEventEntity,
  UserEntity,
  GroupEntity,
  GroupMemberEntity,
  AuthorizationCodeEntity,
  RefreshTokenEntity,
  SessionEntity,
  AuditRecordEntity,
  AuditChainHeadEntity,
  AuditCheckpointEntity,
  WebhookEndpointEntity,
  WebhookDeliveryEntity,
  WebhookAttemptEntity,
  WebhookDispatchCursorEntity,
  ServiceDefinitionEntity,
  ServiceDefinitionSequenceEntity,
  SecretVersionEntity,
  JobEntity,
  JobEventEntity,
  ImpersonationPolicyEntity,
  DeviceAuthorizationEntity,
  BackchannelLogoutEntity,
  AssertionUseEntity,
  FederatedIssuerEntity,
  SamlIdentityProviderEntity,
  SamlRequestEntity,
  QuotaUsageEntity,
  QuotaConsumptionEntity,
];
