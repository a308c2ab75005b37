import { EventEmitter } from 'node:events';
import type { ClientReadableStream } from '@grpc/grpc-js';
import type { DynamicModule, Provider } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import type { InvalidationMessage, TokenClaims } from '@platform/grpc';
import type { AcceptedAuthorizeRequest, AuthorizationClient } from '../clients/authorization.client';
import type { ControlPlaneClient, UpstreamResponse } from '../clients/control-plane.client';
import type { SessionsClient, SessionUser } from '../clients/sessions.client';
import type { SidecarClient } from '../clients/sidecar.client';
import type { IdentityProviderClient } from '../login/identity-provider.client';

/** Test helpers for the backend's unit specs (never imported by production code). */

export const testConfig = (overrides: Partial<PlatformConfig> = {}): PlatformConfig => ({
  nodeEnv: 'test',
  backendPort: 0,
  controlPlanePort: 0,
  controlPlaneUrl: 'http://127.0.0.1:1',
  sidecarGrpcAddress: '127.0.0.1:1',
  sidecarHealthPort: 0,
  backendMetricsPort: 0,
  backendMetricsHost: '127.0.0.1',
  dataDir: '/nonexistent',
  databaseUrl: 'sqlite::memory:',
  issuer: 'https://auth.example.test',
  adminClientId: 'admin',
  adminClientSecret: undefined,
  internalToken: 'internal-test-token',
  sessionSecret: () => 'session-test-secret',
  oidc: { issuer: undefined, clientId: undefined, clientSecret: undefined, scopes: 'openid email profile' },
  logFormat: 'text',
  secrets: { kek: () => Buffer.alloc(32), previousKeks: [] },
  revocationPollMs: 30_000,
  backendTokenCacheSize: 10_000,
  sidecar: {
    allowNonLoopback: false,
    healthHost: '127.0.0.1',
    tokenCacheSize: 10_000,
    keyRefreshMs: 30_000,
    unknownKidRefreshIntervalMs: 5_000,
  },
  shutdownDrainMs: 0,
  signingKeyRotationDays: 90,
  retention: { graceSeconds: 3600, tokenEventDays: 30 },
  refreshTokenAbsoluteLifetimeDays: 90,
  impersonationMaxLifetimeSeconds: 900,
  argon2Concurrency: 1,
  argon2Nice: 15,
  trustProxy: [],
  quotas: { redisUrl: undefined, redisPrefix: 'platform' },
  rateLimits: {
    redisUrl: undefined,
    clientPerMinute: 600_000,
    addressPerMinute: 1_200_000,
    failedAuthPerClient: 10,
    failedAuthPerAddress: 100,
    failedAuthWindowSeconds: 900,
  },
  webhooks: { allowPrivateUrls: true, timeoutMs: 15_000, concurrency: 64 },
  liveStreams: {},
  ...overrides,
});

export const claimsFactory = (overrides: Partial<TokenClaims> = {}): TokenClaims => ({
  iss: 'https://auth.example.test',
  sub: 'worker',
  aud: 'https://auth.example.test',
  exp: 2_000_000_000,
  iat: 1_999_996_400,
  jti: 'jti-1',
  client_id: 'worker',
  scope: 'jobs.read',
  tenant: '',
  roles: [],
  grant_id: '',
  act: null,
  impersonation: '',
  cnf: null,
  ...overrides,
});

export const upstream = (
  status: number,
  body: unknown = undefined,
  headers: Record<string, string> = {},
): UpstreamResponse => ({
  status,
  headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
  body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
});

export type FakeSidecar = jest.Mocked<
  Pick<
    SidecarClient,
    'validateToken' | 'syncRevocations' | 'watchInvalidations' | 'state' | 'onApplicationShutdown'
  >
>;
export type FakeControlPlane = jest.Mocked<
  Pick<ControlPlaneClient, 'request' | 'issueToken' | 'onApplicationShutdown'>
>;

export const fakeSidecar = (): FakeSidecar => ({
  validateToken: jest.fn(),
  syncRevocations: jest.fn().mockResolvedValue(0),
  // A stream that never goes live: the validation cache stays off and every token is asked for.
  watchInvalidations: jest.fn(() => silentStream() as unknown as ClientReadableStream<InvalidationMessage>),
  state: jest.fn().mockResolvedValue('connected'),
  onApplicationShutdown: jest.fn(),
});

/** An invalidation stream that says nothing until cancelled; `push` plays sidecar messages. */
export type FakeInvalidationStream = EventEmitter & {
  cancel: jest.Mock;
  push(message: InvalidationMessage): void;
  /** Ends the call as a sidecar that went away would. */
  fail(): void;
};

export function silentStream(): FakeInvalidationStream {
  const stream = new EventEmitter() as FakeInvalidationStream;
  stream.push = (message) => stream.emit('data', message);
  stream.fail = () => {
    stream.emit('error', new Error('UNAVAILABLE'));
    stream.emit('status', { code: 14, details: 'Connection dropped', metadata: undefined });
  };
  stream.cancel = jest.fn(() => {
    stream.emit('error', new Error('CANCELLED'));
    stream.emit('status', { code: 1, details: 'Cancelled on client', metadata: undefined });
  });
  return stream;
}

export const fakeControlPlane = (): FakeControlPlane => ({
  request: jest.fn(),
  issueToken: jest.fn(),
  onApplicationShutdown: jest.fn().mockResolvedValue(undefined),
});

/** The module with some providers (by token) replaced, e.g. the clients by test doubles. */
export function withProviders(
  module: DynamicModule,
  replacements: Array<{ provide: unknown; useValue: unknown }>,
): DynamicModule {
  const replaced = new Set(replacements.map((r) => r.provide));
  const tokenOf = (provider: Provider): unknown =>
    typeof provider === 'function' ? provider : provider.provide;
  return {
    ...module,
    providers: [
      ...(module.providers ?? []).filter((p) => !replaced.has(tokenOf(p))),
      ...(replacements as Provider[]),
    ],
  };
}

export type FakeAuthorizationClient = jest.Mocked<Pick<AuthorizationClient, 'check' | 'decide'>>;
export type FakeSessionsClient = jest.Mocked<Pick<SessionsClient, 'create' | 'resolve' | 'end'>>;
export type FakeIdentityProvider = jest.Mocked<Pick<IdentityProviderClient, 'startLogin' | 'finishLogin'>>;

export const fakeAuthorizationClient = (): FakeAuthorizationClient => ({
  check: jest.fn(),
  decide: jest.fn(),
});

export const fakeSessionsClient = (): FakeSessionsClient => ({
  create: jest.fn(),
  resolve: jest.fn(),
  end: jest.fn().mockResolvedValue(undefined),
});

export const fakeIdentityProvider = (): FakeIdentityProvider => ({
  startLogin: jest.fn(),
  finishLogin: jest.fn(),
});

export const userFactory = (overrides: Partial<SessionUser> = {}): SessionUser => ({
  id: 'user-1',
  email: 'alice@acme.example',
  name: 'Alice Admin',
  tenant: 'acme',
  roles: ['tenant_admin'],
  ...overrides,
});

/** What the control plane's check answers for a request it accepts. */
export const acceptedRequest = (
  overrides: Partial<AcceptedAuthorizeRequest> = {},
): AcceptedAuthorizeRequest => ({
  clientId: 'dashboard',
  clientName: 'Dashboard',
  redirectUri: 'https://dashboard.example.com/callback',
  scopes: [{ name: 'jobs.read', description: 'List and view job executions' }],
  ...overrides,
});
