import * as grpc from '@grpc/grpc-js';
import { createAuthServiceClient, type AuthServiceClient } from '@platform/grpc';
import { decodeJwt } from 'jose';
import type * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { identityOf, signIn } from '../../support/internal-consent';
import {
  adminToken,
  clientCredentialsToken,
  discover,
  registerApp,
  type RegisteredApp,
} from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { refusal, validateAt } from './exchange-client';

const BILLING = 'https://billing.resource-indicators.example';

/**
 * RFC 8707 alone: a token request names the one resource the token is for. Its own apps and
 * user on the shared platform.
 */
describe('resource indicators at the token endpoint (RFC 8707)', () => {
  let platform: TestPlatform;
  let as: oauth.AuthorizationServer;
  let sidecar: AuthServiceClient;
  let caller: RegisteredApp;
  let dashboard: RegisteredApp;

  beforeAll(async () => {
    platform = sharedPlatform();
    as = await discover(platform);
    sidecar = createAuthServiceClient(platform.sidecarAddress);
    const admin = await adminToken(as, platform);
    await registerApp(platform, admin, { client_id: 'indicators-billing', resource_uri: BILLING });
    caller = await registerApp(platform, admin, { client_id: 'indicators-caller' });
    dashboard = await registerApp(platform, admin, {
      client_id: 'indicators-dashboard',
      app_type: 'spa',
      declared_scopes: ['jobs.read'],
      redirect_uris: ['https://dashboard.resource-indicators.example/callback'],
    });
  });
  afterAll(() => sidecar?.close());

  const credentials = () => ({ clientId: caller.client_id, clientSecret: caller.client_secret! });

  it('client_credentials with a resource: a token whose audience is that resource, for it only', async () => {
    const { access_token } = await clientCredentialsToken(as, credentials(), { resource: BILLING });
    expect(decodeJwt(access_token)).toMatchObject({ aud: BILLING, sub: 'indicators-caller' });
    expect((await validateAt(sidecar, access_token, BILLING)).code).toBe(grpc.status.OK);
    expect((await validateAt(sidecar, access_token, '')).code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('refuses a resource no app registered: invalid_target', async () => {
    const refused = await refusal(
      clientCredentialsToken(as, credentials(), { resource: 'https://unknown.resource-indicators.example' }),
    );
    expect(refused).toEqual({ status: 400, error: 'invalid_target' });
  });

  it('a refresh names a resource, or none, again: the refresh token is bound to none', async () => {
    const { config, tokens } = await signIn(platform, dashboard, {
      identity: identityOf('resource-indicators-ada', 'resource-indicators', ['viewer']),
    });
    expect(decodeJwt(tokens.access_token).aud).toBe(platform.baseUrl);
    const forBilling = await client.refreshTokenGrant(config, tokens.refresh_token!, { resource: BILLING });
    expect(decodeJwt(forBilling.access_token).aud).toBe(BILLING);
    const plain = await client.refreshTokenGrant(config, forBilling.refresh_token!);
    expect(decodeJwt(plain.access_token).aud).toBe(platform.baseUrl);
  });
});
