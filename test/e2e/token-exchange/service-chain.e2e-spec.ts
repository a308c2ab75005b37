import * as grpc from '@grpc/grpc-js';
import { createAuthServiceClient, type AuthServiceClient } from '@platform/grpc';
import { decodeJwt } from 'jose';
import type * as oauth from 'oauth4webapi';
import { identityOf, meStatus, signIn } from '../../support/internal-consent';
import { adminToken, discover, postForm, registerApp, type RegisteredApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { ACCESS_TOKEN_TYPE, exchange, refusal, validateAt } from './exchange-client';

const ORDERS = 'https://orders.service-chain.example';
const LEDGER = 'https://ledger.service-chain.example';
const ARCHIVE = 'https://archive.service-chain.example';
const ADA = identityOf('service-chain-ada', 'service-chain', ['viewer']);

/**
 * A's user calls B (orders), B calls C (ledger) for that user, C calls D (archive): each service
 * trades the token it received for one meant for the next, checked by the next one's sidecar.
 * Its own apps, resources and user on the shared platform.
 */
describe('token exchange along a chain of services (RFC 8693, RFC 8707)', () => {
  let platform: TestPlatform;
  let as: oauth.AuthorizationServer;
  let admin: string;
  let sidecar: AuthServiceClient;
  let web: RegisteredApp;
  let orders: RegisteredApp;
  let ledger: RegisteredApp;

  beforeAll(async () => {
    platform = sharedPlatform();
    as = await discover(platform);
    admin = await adminToken(as, platform);
    sidecar = createAuthServiceClient(platform.sidecarAddress);
    await registerApp(platform, admin, { client_id: 'chain-archive', resource_uri: ARCHIVE });
    ledger = await registerApp(platform, admin, {
      client_id: 'chain-ledger',
      declared_scopes: ['jobs.read', 'tokens.introspect'],
      resource_uri: LEDGER,
    });
    orders = await registerApp(platform, admin, {
      client_id: 'chain-orders',
      resource_uri: ORDERS,
      token_exchange_audiences: [LEDGER],
    });
    web = await registerApp(platform, admin, {
      client_id: 'chain-web',
      app_type: 'web',
      declared_scopes: ['jobs.read', 'jobs.write'],
      redirect_uris: ['https://web.service-chain.example/callback'],
    });
  });
  afterAll(() => sidecar?.close());

  /** Ada's access token at the web app, requested for `resource`. */
  const adaToken = async (resource: string) => {
    const { tokens, user } = await signIn(platform, web, {
      identity: ADA,
      scope: 'jobs.read jobs.write',
      resource,
    });
    return { token: tokens.access_token, userId: user.id };
  };

  it('B trades the user token it received for one for C, narrowed; C sees the user, with B acting', async () => {
    const { token, userId } = await adaToken(ORDERS);
    expect(decodeJwt(token).aud).toBe(ORDERS);

    const exchanged = await exchange(as, orders, token, { audience: LEDGER, scope: 'jobs.read' });
    expect(exchanged).toMatchObject({ issued_token_type: ACCESS_TOKEN_TYPE, scope: 'jobs.read' });
    expect(exchanged.refresh_token).toBeUndefined();
    expect(await validateAt(sidecar, exchanged.access_token, LEDGER)).toMatchObject({
      code: grpc.status.OK,
      claims: {
        sub: userId,
        aud: LEDGER,
        client_id: 'chain-orders',
        scope: 'jobs.read',
        tenant: 'service-chain',
        act: { sub: 'chain-orders', client_id: 'chain-orders' },
      },
    });
  });

  it("refuses each token where it is not meant: A's at C, the exchanged one at the platform's own API", async () => {
    const { token } = await adaToken(ORDERS);
    const exchanged = (await exchange(as, orders, token, { audience: LEDGER })).access_token;
    expect((await validateAt(sidecar, token, LEDGER)).code).toBe(grpc.status.UNAUTHENTICATED);
    expect((await validateAt(sidecar, exchanged, '')).code).toBe(grpc.status.UNAUTHENTICATED);
    expect(await meStatus(platform, exchanged)).toBe(401);
    expect(await meStatus(platform, token)).toBe(401);
  });

  it('shows the actor and the audience at introspection, to C (tokens.introspect)', async () => {
    const { token, userId } = await adaToken(ORDERS);
    const exchanged = (await exchange(as, orders, token, { audience: LEDGER })).access_token;
    const response = await postForm(`${platform.baseUrl}/v1/oauth/introspect`, {
      token: exchanged,
      client_id: ledger.client_id,
      client_secret: ledger.client_secret!,
    });
    expect(await response.json()).toMatchObject({
      active: true,
      sub: userId,
      aud: LEDGER,
      client_id: 'chain-orders',
      act: { sub: 'chain-orders', client_id: 'chain-orders' },
    });
  });

  describe('refusals, with the error codes of RFC 8693 section 2.2.2 and RFC 8707', () => {
    let token: string;
    beforeAll(async () => {
      token = (await adaToken(ORDERS)).token;
    });

    it('a scope beyond the subject token: invalid_scope', async () => {
      const refused = await refusal(
        exchange(as, orders, token, { audience: LEDGER, scope: 'jobs.read files.read' }),
      );
      expect(refused).toEqual({ status: 400, error: 'invalid_scope' });
    });

    it("an unknown audience, one not among B's, and a second resource: invalid_target", async () => {
      for (const parameters of [
        { audience: 'https://unknown.service-chain.example' },
        { audience: ARCHIVE },
        new URLSearchParams([
          ['resource', LEDGER],
          ['resource', ARCHIVE],
        ]),
      ]) {
        expect(await refusal(exchange(as, orders, token, parameters))).toEqual({
          status: 400,
          error: 'invalid_target',
        });
      }
    });

    // An expired subject token: a running platform's clock does not move, and a token signed here
    // would not be one the platform issued. libs/domain/src/grants/token-exchange.grant.spec.ts
    // ("refuses a subject token issued for another resource, an expired one and a revoked one").
    it('a revoked subject token, and one meant for another resource: invalid_request', async () => {
      const { token: revoked } = await adaToken(ORDERS);
      const revocation = await postForm(`${platform.baseUrl}/v1/oauth/revoke`, {
        token: revoked,
        client_id: web.client_id,
        client_secret: web.client_secret!,
      });
      expect(revocation.status).toBe(200);
      const { token: forLedger } = await adaToken(LEDGER);
      for (const subject of [revoked, forLedger]) {
        expect(await refusal(exchange(as, orders, subject, { audience: LEDGER }))).toEqual({
          status: 400,
          error: 'invalid_request',
        });
      }
    });

    it('a client registered for no exchange: unauthorized_client', async () => {
      // Naming no audience: one the client may not exchange for is invalid_target before this.
      const refused = await refusal(exchange(as, web, token));
      expect(refused).toEqual({ status: 400, error: 'unauthorized_client' });
    });
  });

  it('nests the chain: C, allowed D afterwards, trades the token again; D sees C acting for B', async () => {
    const allowed = await fetch(`${platform.baseUrl}/v1/oauth/apps/chain-ledger`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ token_exchange_audiences: [ARCHIVE] }),
    });
    expect(allowed.status).toBe(200);
    const { token, userId } = await adaToken(ORDERS);
    const forLedger = (await exchange(as, orders, token, { audience: LEDGER })).access_token;
    // The audience by the client_id of the app registered as the resource.
    const forArchive = (await exchange(as, ledger, forLedger, { audience: 'chain-archive' })).access_token;
    expect(await validateAt(sidecar, forArchive, ARCHIVE)).toMatchObject({
      code: grpc.status.OK,
      claims: {
        sub: userId,
        aud: ARCHIVE,
        client_id: 'chain-ledger',
        act: {
          sub: 'chain-ledger',
          client_id: 'chain-ledger',
          act: { sub: 'chain-orders', client_id: 'chain-orders' },
        },
      },
    });
  });
});
