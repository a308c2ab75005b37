import { decodeJwt } from 'jose';
import { AuditedTransactor, AuditTrail } from '../audit/audit-trail';
import { ManualClock } from '../clock';
import { OAuthError } from '../errors';
import type { ImpersonationPolicyStore } from '../impersonation/impersonation-policy';
import type { ExternalIdentity } from '../sessions/identity-claims';
import {
  anAuthorizationRequest,
  codeExchange,
  createTestEngine,
  inMemoryStorage,
  TEST_START,
  expectOAuthError,
  postCredentials,
  type SeededApplication,
  TEST_ISSUER,
  type TestEngine,
} from '../testing/in-memory-stores';
import { signRs256 } from '../tokens/jws';
import { TOKEN_EXCHANGE_GRANT } from '../registry/application';
import { TOKEN_TYPE } from './token-exchange';
import { TokenExchangeGrant } from './token-exchange.grant';

const ORDERS = 'https://orders.example.com';
const LEDGER = 'https://ledger.example.com';

const identity = (subject: string, tenant: string, roles: string[]): ExternalIdentity => ({
  issuer: 'https://idp.example.com',
  subject,
  claims: { email: `${subject}@example.com`, name: subject, tenant, roles },
});

async function setUp() {
  const storage = inMemoryStorage();
  // As the control plane runs it: every token event audited in its transaction.
  const engine = await createTestEngine({
    stores: storage.stores,
    transactor: new AuditedTransactor(storage.transactor, new AuditTrail(new ManualClock(TEST_START))),
  });
  // A (web front end) calls B (orders) which calls C (ledger) for the user.
  const front = await engine.seed({
    clientId: 'front',
    appType: 'web',
    declaredScopes: ['jobs.*', 'files.read'],
  });
  const orders = await engine.seed({
    clientId: 'orders',
    declaredScopes: ['jobs.read'],
    resourceUri: ORDERS,
    exchangeAudiences: [LEDGER],
  });
  const ledger = await engine.seed({
    clientId: 'ledger',
    declaredScopes: ['jobs.read'],
    resourceUri: LEDGER,
  });
  const console = await engine.seed({
    clientId: 'console',
    appType: 'web',
    declaredScopes: ['users.*', 'jobs.*'],
    mayImpersonate: true,
  });
  return { ...engine, front, orders, ledger, console };
}

type Engine = Awaited<ReturnType<typeof setUp>>;

/** A user's tokens through `app`, by the authorization code flow. */
async function userToken(
  engine: Pick<TestEngine, 'sessions' | 'consent' | 'tokenEndpoint'>,
  app: SeededApplication,
  who: ExternalIdentity,
  scope: string,
  extra: Record<string, string> = {},
) {
  const { session, user } = await engine.sessions.create(who);
  const redirectTo = await engine.consent.decide({
    request: anAuthorizationRequest(app, { scope }),
    session,
    approved: true,
  });
  const code = new URL(redirectTo).searchParams.get('code') as string;
  const response = await engine.tokenEndpoint.handle({ ...codeExchange(app, code), ...extra }, undefined);
  return { user, token: response.access_token, response };
}

const exchange = (engine: Engine, client: SeededApplication, params: Record<string, string>) =>
  engine.tokenEndpoint.handle(
    { grant_type: TOKEN_EXCHANGE_GRANT, ...postCredentials(client), ...params },
    undefined,
  );

const delegation = (subjectToken: string, extra: Record<string, string> = {}) => ({
  subject_token: subjectToken,
  subject_token_type: TOKEN_TYPE.accessToken,
  ...extra,
});

const ADA = identity('ada', 'acme', ['user']);

const policies = (engine: Engine): ImpersonationPolicyStore => engine.stores.impersonationPolicies;

describe(TokenExchangeGrant.name, () => {
  describe('resource indicators (RFC 8707)', () => {
    it('issues a token for the one registered resource named, and keeps the issuer otherwise', async () => {
      const engine = await setUp();
      const forOrders = decodeJwt(await engine.tokenFor(engine.ledger));
      expect(forOrders.aud).toBe(TEST_ISSUER);
      const response = await engine.tokenEndpoint.handle(
        { grant_type: 'client_credentials', ...postCredentials(engine.ledger), resource: ORDERS },
        undefined,
      );
      expect(decodeJwt(response.access_token).aud).toBe(ORDERS);
      const { token } = await userToken(engine, engine.front, ADA, 'jobs.read', { resource: ORDERS });
      expect(decodeJwt(token).aud).toBe(ORDERS);
    });

    it('refuses an unknown resource, a relative one and one with a fragment: invalid_target', async () => {
      const engine = await setUp();
      for (const resource of ['https://unknown.example.com', 'orders', `${ORDERS}#x`]) {
        await expectOAuthError(
          engine.tokenEndpoint.handle(
            { grant_type: 'client_credentials', ...postCredentials(engine.ledger), resource },
            undefined,
          ),
          'invalid_target',
        );
      }
    });

    it('a resource-restricted token is not one for the platform API', async () => {
      const engine = await setUp();
      const response = await engine.tokenEndpoint.handle(
        { grant_type: 'client_credentials', ...postCredentials(engine.ledger), resource: ORDERS },
        undefined,
      );
      await expect(engine.validator.validate(response.access_token)).resolves.toBeNull();
      await expect(
        engine.validator.validate(response.access_token, { anyAudience: true }),
      ).resolves.toMatchObject({ aud: ORDERS });
    });
  });

  describe('delegation', () => {
    it('A -> B -> C: B exchanges the user token for C with narrowed scopes and names itself in act', async () => {
      const engine = await setUp();
      const { token, user } = await userToken(engine, engine.front, ADA, 'jobs.read jobs.write', {
        resource: ORDERS,
      });
      const response = await exchange(
        engine,
        engine.orders,
        delegation(token, { audience: LEDGER, scope: 'jobs.read' }),
      );
      expect(response).toMatchObject({
        issued_token_type: TOKEN_TYPE.accessToken,
        token_type: 'Bearer',
        scope: 'jobs.read',
      });
      expect(response.refresh_token).toBeUndefined();
      const claims = decodeJwt(response.access_token);
      expect(claims).toMatchObject({
        sub: user.id,
        aud: LEDGER,
        client_id: 'orders',
        tenant: 'acme',
        roles: ['user'],
        act: { sub: 'orders', client_id: 'orders' },
      });
      expect(claims.exp).toBeLessThanOrEqual(decodeJwt(token).exp as number);
    });

    it('nests the chain when the exchanged token is exchanged again', async () => {
      const engine = await setUp();
      await engine.stores.applications.updateApplicationExchange('ledger', { exchangeAudiences: [ORDERS] });
      const { token } = await userToken(engine, engine.front, ADA, 'jobs.read', { resource: ORDERS });
      const first = await exchange(engine, engine.orders, delegation(token, { resource: LEDGER }));
      const ledger = { ...engine.ledger, app: { ...engine.ledger.app, exchangeAudiences: [ORDERS] } };
      const second = await exchange(engine, ledger, delegation(first.access_token, { audience: 'orders' }));
      expect(decodeJwt(second.access_token)).toMatchObject({
        aud: ORDERS,
        act: { sub: 'ledger', client_id: 'ledger', act: { sub: 'orders', client_id: 'orders' } },
      });
    });

    it('names the actor_token subject as the actor, when it was issued to the client', async () => {
      const engine = await setUp();
      const { token } = await userToken(engine, engine.front, ADA, 'jobs.read', { resource: ORDERS });
      const actorToken = await engine.tokenFor(engine.orders);
      const response = await exchange(
        engine,
        engine.orders,
        delegation(token, {
          audience: LEDGER,
          actor_token: actorToken,
          actor_token_type: TOKEN_TYPE.accessToken,
        }),
      );
      expect(decodeJwt(response.access_token).act).toEqual({ sub: 'orders', client_id: 'orders' });
      const otherActor = await engine.tokenFor(engine.ledger);
      await expectOAuthError(
        exchange(
          engine,
          engine.orders,
          delegation(token, { actor_token: otherActor, actor_token_type: TOKEN_TYPE.jwt }),
        ),
        'invalid_request',
      );
    });

    it('refuses every case RFC 8693 section 2.2.2 names, with its error', async () => {
      const engine = await setUp();
      const { token } = await userToken(engine, engine.front, ADA, 'jobs.read', { resource: ORDERS });
      const refusals: Array<[SeededApplication, Record<string, string>, string]> = [
        [engine.orders, delegation(token, { audience: LEDGER, scope: 'jobs.write' }), 'invalid_scope'],
        [engine.orders, delegation(token, { audience: 'https://unknown.example.com' }), 'invalid_target'],
        // Registered, but not among the audiences orders may exchange for.
        [engine.orders, delegation(token, { audience: ORDERS }), 'invalid_target'],
        [engine.orders, delegation('not-a-token', { audience: LEDGER }), 'invalid_request'],
        [engine.orders, { subject_token: token, audience: LEDGER }, 'invalid_request'],
        [
          engine.orders,
          delegation(token, { subject_token_type: 'urn:ietf:params:oauth:token-type:saml2' }),
          'invalid_request',
        ],
        [
          engine.orders,
          delegation(token, { requested_token_type: 'urn:ietf:params:oauth:token-type:refresh_token' }),
          'invalid_request',
        ],
        [engine.orders, delegation(token, { actor_token: token }), 'invalid_request'],
        // ledger may not exchange at all; a token for orders is not ledger's to exchange either.
        [engine.ledger, delegation(token), 'unauthorized_client'],
      ];
      for (const [client, params, code] of refusals) {
        await expectOAuthError(exchange(engine, client, params), code as OAuthError['code']);
      }
    });

    it('refuses a subject token issued for another resource, an expired one and a revoked one', async () => {
      const engine = await setUp();
      const { token: forLedger } = await userToken(engine, engine.front, ADA, 'jobs.read', {
        resource: LEDGER,
      });
      await expectOAuthError(exchange(engine, engine.orders, delegation(forLedger)), 'invalid_request');

      const { token, response } = await userToken(engine, engine.front, ADA, 'jobs.read', {
        resource: ORDERS,
      });
      await engine.revoker.revoke({ token, ...postCredentials(engine.front) }, undefined);
      await expectOAuthError(exchange(engine, engine.orders, delegation(token)), 'invalid_request');

      const { token: later } = await userToken(engine, engine.front, ADA, 'jobs.read', { resource: ORDERS });
      engine.clock.advance((response.expires_in + 1) * 1000);
      await expectOAuthError(exchange(engine, engine.orders, delegation(later)), 'invalid_request');
    });

    it('honours may_act: only the actor it names may exchange', async () => {
      const engine = await setUp();
      const signed = (mayAct: { sub: string }) =>
        engine.accessTokens
          .issue({
            clientId: 'front',
            subject: 'front',
            scopes: ['jobs.read'],
            audience: ORDERS,
          })
          .then(({ claims }) => {
            const { kid, privateKey } = engine.keys.signingKey();
            return signRs256(
              { alg: 'RS256', typ: 'at+jwt', kid },
              { ...claims, may_act: mayAct },
              privateKey,
            );
          });
      await expectOAuthError(
        exchange(
          engine,
          engine.orders,
          delegation(await signed({ sub: 'someone-else' }), { audience: LEDGER }),
        ),
        'invalid_request',
      );
      const allowed = await exchange(
        engine,
        engine.orders,
        delegation(await signed({ sub: 'orders' }), { audience: LEDGER }),
      );
      expect(decodeJwt(allowed.access_token).act).toEqual({ sub: 'orders', client_id: 'orders' });
    });

    it('audits every exchange with its actor and audience', async () => {
      const engine = await setUp();
      const { token } = await userToken(engine, engine.front, ADA, 'jobs.read', { resource: ORDERS });
      const response = await exchange(engine, engine.orders, delegation(token, { audience: LEDGER }));
      const events = await engine.stores.tokenEvents.listTokenEvents({ limit: 100 });
      expect(events.at(-1)).toMatchObject({
        type: 'token.exchanged',
        clientId: 'orders',
        jti: decodeJwt(response.access_token).jti,
      });
    });
  });

  describe('impersonation', () => {
    const ROOT = identity('root', 'platform', ['global_admin']);
    const TINA = identity('tina', 'acme', ['tenant_admin']);
    const OTTO = identity('otto', 'globex', ['tenant_admin']);
    const VERA = identity('vera', 'acme', ['viewer']);
    const GINA = identity('gina', 'acme', ['global_admin']);

    const impersonate = (
      engine: Engine,
      actorToken: string,
      userId: string,
      extra: Record<string, string> = {},
      client: SeededApplication = engine.console,
    ) =>
      exchange(engine, client, {
        subject_token: userId,
        subject_token_type: TOKEN_TYPE.userId,
        actor_token: actorToken,
        actor_token_type: TOKEN_TYPE.accessToken,
        reason: 'ticket 4711: the user cannot see their jobs',
        ...extra,
      });

    it('gives a tenant_admin a short-lived token as a user of its tenant, naming it in act, audited', async () => {
      const engine = await setUp();
      const { user: ada } = await engine.sessions.create(ADA);
      const { token, user: tina } = await userToken(
        engine,
        engine.console,
        TINA,
        'users.impersonate jobs.read',
      );
      const response = await impersonate(engine, token, ada.id, { scope: 'jobs.read' });
      expect(response.refresh_token).toBeUndefined();
      expect(response.expires_in).toBe(900);
      const claims = decodeJwt(response.access_token);
      expect(claims).toMatchObject({
        sub: ada.id,
        tenant: 'acme',
        roles: ['user'],
        client_id: 'console',
        scope: 'jobs.read',
        act: { sub: tina.id, client_id: 'console' },
        impersonation: 'full',
        grant_id: decodeJwt(token).grant_id,
      });
      const [record] = await engine.stores.audit.listAuditRecords({
        limit: 10,
        action: 'token.impersonated',
      });
      expect(record).toMatchObject({
        tenant: 'acme',
        actorKind: 'user',
        actorId: tina.id,
        attributes: expect.objectContaining({
          impersonator: tina.id,
          subject: ada.id,
          reason: 'ticket 4711: the user cannot see their jobs',
          mode: 'full',
          expires_at: new Date(((claims.iat as number) + 900) * 1000).toISOString(),
        }),
      });
    });

    it('expires at its lifetime', async () => {
      const engine = await setUp();
      const { user: ada } = await engine.sessions.create(ADA);
      const { token } = await userToken(engine, engine.console, TINA, 'users.impersonate jobs.read');
      const { access_token } = await impersonate(engine, token, ada.id);
      engine.clock.advanceSeconds(899);
      await expect(engine.validator.validate(access_token)).resolves.not.toBeNull();
      engine.clock.advanceSeconds(1);
      await expect(engine.validator.validate(access_token)).resolves.toBeNull();
    });

    it('refuses without the permission, across tenants, a global_admin target, and by a client not registered for it', async () => {
      const engine = await setUp();
      const { user: ada } = await engine.sessions.create(ADA);
      const { user: gina } = await engine.sessions.create(GINA);
      const { token: tina } = await userToken(engine, engine.console, TINA, 'users.impersonate jobs.read');
      const { token: vera } = await userToken(engine, engine.console, VERA, 'users.impersonate jobs.read');
      const { token: otto } = await userToken(engine, engine.console, OTTO, 'users.impersonate jobs.read');
      const { token: noScope } = await userToken(engine, engine.console, TINA, 'jobs.read');
      await expectOAuthError(impersonate(engine, vera, ada.id), 'invalid_request');
      await expectOAuthError(impersonate(engine, otto, ada.id), 'invalid_request');
      await expectOAuthError(impersonate(engine, noScope, ada.id), 'invalid_request');
      await expectOAuthError(impersonate(engine, tina, gina.id), 'invalid_request');
      await expectOAuthError(impersonate(engine, tina, 'no-such-user'), 'invalid_request');
      await expectOAuthError(impersonate(engine, tina, ada.id, { reason: '' }), 'invalid_request');
      await expectOAuthError(impersonate(engine, tina, ada.id, { scope: 'jobs.write' }), 'invalid_scope');
      // The same refusal whether the user exists elsewhere or not at all.
      const across = await impersonate(engine, otto, ada.id).catch((e: OAuthError) => e);
      const unknown = await impersonate(engine, tina, 'no-such-user').catch((e: OAuthError) => e);
      expect((across as OAuthError).description).toBe((unknown as OAuthError).description);
      const front = await userToken(engine, engine.front, TINA, 'jobs.read');
      await expectOAuthError(
        impersonate(engine, front.token, ada.id, {}, engine.front),
        'unauthorized_client',
      );
    });

    it('lets a global_admin impersonate anyone, a global_admin included', async () => {
      const engine = await setUp();
      const { user: gina } = await engine.sessions.create(GINA);
      const { token } = await userToken(engine, engine.console, ROOT, 'users.impersonate jobs.read');
      const response = await impersonate(engine, token, gina.id);
      expect(decodeJwt(response.access_token)).toMatchObject({ sub: gina.id, roles: ['global_admin'] });
    });

    it("follows the tenant's policy: read_only marks the token, disabled refuses", async () => {
      const engine = await setUp();
      const { user: ada } = await engine.sessions.create(ADA);
      const { token } = await userToken(
        engine,
        engine.console,
        TINA,
        'users.impersonate jobs.read jobs.write',
      );
      await policies(engine).putImpersonationPolicy('acme', 'read_only', engine.clock.now());
      const response = await impersonate(engine, token, ada.id);
      expect(decodeJwt(response.access_token).impersonation).toBe('read_only');
      await policies(engine).putImpersonationPolicy('acme', 'disabled', engine.clock.now());
      await expectOAuthError(impersonate(engine, token, ada.id), 'invalid_request');
    });

    it("ends with the impersonator's grant, and an impersonation token impersonates nobody", async () => {
      const engine = await setUp();
      const { user: ada } = await engine.sessions.create(ADA);
      const { user: bob } = await engine.sessions.create(identity('bob', 'acme', ['user']));
      const { token, response } = await userToken(
        engine,
        engine.console,
        TINA,
        'users.impersonate jobs.read',
      );
      const { access_token } = await impersonate(engine, token, ada.id);
      await expectOAuthError(impersonate(engine, access_token, bob.id), 'invalid_request');
      await engine.revoker.revoke(
        { token: response.refresh_token as string, ...postCredentials(engine.console) },
        undefined,
      );
      await expect(engine.validator.validate(access_token)).resolves.toBeNull();
    });

    it('ends when the impersonator is deprovisioned', async () => {
      const engine = await setUp();
      const { user: ada } = await engine.sessions.create(ADA);
      const { token, user: tina } = await userToken(
        engine,
        engine.console,
        TINA,
        'users.impersonate jobs.read',
      );
      const { access_token } = await impersonate(engine, token, ada.id);
      const now = engine.clock.now();
      await engine.stores.revocations.addRevocations(
        [{ kind: 'subject', value: tina.id, expiresAt: new Date(now.getTime() + 3_600_000) }],
        now,
      );
      await expect(engine.validator.validate(access_token)).resolves.toBeNull();
    });
  });
});
