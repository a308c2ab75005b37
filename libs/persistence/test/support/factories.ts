import { randomBytes, randomUUID } from 'node:crypto';
import type {
  Application,
  AuditEventInput,
  AuthorizationCodeRecord,
  ExternalUserInput,
  ProvisionedUserInput,
  RefreshTokenRecord,
  RevocationInput,
  SessionRecord,
  SigningKeyRecord,
  TokenEventInput,
  WebhookDeliveryInput,
  WebhookEndpoint,
} from '@platform/domain';

/** A fixed instant with milliseconds, so a round trip that loses precision shows. */
export const T0 = new Date('2025-03-01T12:00:00.123Z');

export const at = (offsetMs: number): Date => new Date(T0.getTime() + offsetMs);

export const uniqueId = (prefix: string): string => `${prefix}-${randomBytes(6).toString('hex')}`;

export function anApplication(overrides: Partial<Application> = {}): Application {
  return {
    clientId: uniqueId('app'),
    name: 'Billing service',
    appType: 'web',
    declaredScopes: ['jobs.read', 'jobs.*'],
    redirectUris: ['https://billing.example/callback'],
    secretHash: '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA',
    createdAt: T0,
    rotatedAt: null,
    tenant: null,
    resourceUri: null,
    exchangeAudiences: [],
    mayImpersonate: false,
    ...overrides,
  };
}

export function aSigningKey(overrides: Partial<SigningKeyRecord> = {}): SigningKeyRecord {
  const kid = overrides.kid ?? uniqueId('kid');
  return {
    kid,
    alg: 'RS256',
    privateJwk: JSON.stringify({ kty: 'RSA', kid, d: 'private-part' }),
    publicJwk: JSON.stringify({ kty: 'RSA', kid, n: 'modulus', e: 'AQAB' }),
    createdAt: T0,
    retiredAt: null,
    ...overrides,
  };
}

export function aRevocation(overrides: Partial<RevocationInput> = {}): RevocationInput {
  return { kind: 'jti', value: uniqueId('jti'), expiresAt: at(3_600_000), ...overrides };
}

export function aTokenEvent(overrides: Partial<TokenEventInput> = {}): TokenEventInput {
  return {
    type: 'token.issued',
    clientId: uniqueId('app'),
    subject: uniqueId('user'),
    jti: uniqueId('jti'),
    grantId: null,
    occurredAt: T0,
    ...overrides,
  };
}

export function anExternalUser(overrides: Partial<ExternalUserInput> = {}): ExternalUserInput {
  return {
    keepStoredRoles: false,
    issuer: 'https://idp.example',
    subject: uniqueId('sub'),
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    tenant: 'acme',
    roles: ['viewer'],
    ...overrides,
  };
}

export function anAuthorizationCode(
  overrides: Partial<AuthorizationCodeRecord> = {},
): AuthorizationCodeRecord {
  return {
    codeHash: uniqueId('code-hash'),
    grantId: uniqueId('grant'),
    clientId: uniqueId('app'),
    userId: uniqueId('user'),
    redirectUri: 'https://billing.example/callback',
    scopes: ['jobs.read'],
    codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    codeChallengeMethod: 'S256',
    createdAt: T0,
    expiresAt: at(60_000),
    consumedAt: null,
    ...overrides,
  };
}

export function aRefreshToken(overrides: Partial<RefreshTokenRecord> = {}): RefreshTokenRecord {
  return {
    tokenHash: uniqueId('token-hash'),
    grantId: uniqueId('grant'),
    clientId: uniqueId('app'),
    userId: uniqueId('user'),
    scopes: ['jobs.read', 'offline_access'],
    createdAt: T0,
    familyCreatedAt: at(-24 * 3_600_000),
    expiresAt: at(30 * 24 * 3_600_000),
    rotatedAt: null,
    revokedAt: null,
    ...overrides,
  };
}

export function aSession(overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    sessionHash: uniqueId('session-hash'),
    userId: uniqueId('user'),
    createdAt: T0,
    expiresAt: at(8 * 3_600_000),
    endedAt: null,
    ...overrides,
  };
}

export const anAuditEvent = (overrides: Partial<AuditEventInput> = {}): AuditEventInput => ({
  tenant: 'acme',
  actorKind: 'app',
  actorId: 'app-billing',
  action: 'invoice.paid',
  target: 'invoice-42',
  outcome: 'success',
  occurredAt: at(0),
  correlationId: 'req-1',
  attributes: { amount: 12.5, currency: 'EUR', refunded: false, note: null },
  ...overrides,
});

export const aWebhookEndpoint = (overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: uniqueId('wh'),
  url: 'https://hooks.example.com/platform',
  description: 'billing events',
  eventTypes: ['token.*', 'app.registered'],
  tenant: 'acme',
  disabledAt: null,
  storedSecret:
    '{"sealed":{"ciphertext":"c2VhbGVk","wrappedKey":"d3JhcHBlZA","kekId":"kek-0123456789abcdef"}}',
  previousStoredSecret: null,
  previousSecretExpiresAt: null,
  startAfterSequence: 0,
  createdAt: T0,
  updatedAt: T0,
  ...overrides,
});

export const aWebhookDelivery = (
  endpointId: string,
  overrides: Partial<WebhookDeliveryInput> = {},
): WebhookDeliveryInput => ({
  endpointId,
  sequenceId: 1,
  eventType: 'token.issued',
  replayOf: null,
  nextAttemptAt: T0,
  ...overrides,
});

export function aProvisionedUser(
  overrides: Partial<ProvisionedUserInput & { id: string; roles: string[] }> = {},
): ProvisionedUserInput & { id: string; roles: string[] } {
  const userName = overrides.userName ?? `${uniqueId('grace')}@example.com`;
  return {
    id: randomUUID(),
    tenant: 'acme',
    userName,
    externalId: uniqueId('ext'),
    active: true,
    email: userName,
    name: 'Grace Hopper',
    profile: {
      name: { givenName: 'Grace', familyName: 'Hopper' },
      emails: [{ value: userName, primary: true }],
    },
    roles: ['user'],
    ...overrides,
  };
}
