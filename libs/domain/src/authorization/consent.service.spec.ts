import { authorizationCodes } from '../tokens/opaque-token';
import {
  anAuthorizationRequest,
  createTestEngine,
  expectDomainError,
  PKCE_CHALLENGE,
  TEST_IDENTITY,
  TEST_ISSUER,
  TEST_START,
} from '../testing/in-memory-stores';
import { AuthorizationRequestError } from './authorization-request';
import { ConsentService } from './consent.service';

async function setUp(redirectUris = ['https://portal.example.com/callback']) {
  const engine = await createTestEngine();
  await engine.scopeRegistry.define('reports.read', 'Read reports');
  const portal = await engine.seed({
    clientId: 'web-portal',
    appType: 'web',
    declaredScopes: ['jobs.*', 'reports.read', 'admin.*'],
    redirectUris,
  });
  const { session, user } = await engine.sessions.create(TEST_IDENTITY);
  const decide = (approved: boolean, overrides: Parameters<typeof anAuthorizationRequest>[1] = {}) =>
    engine.consent.decide({ request: anAuthorizationRequest(portal, overrides), session, approved });
  return { ...engine, portal, session, user, decide };
}

/** The stored record of the code in the redirect URI (only its hash is stored). */
function codeRecord(engine: Awaited<ReturnType<typeof setUp>>, redirectTo: string) {
  const code = new URL(redirectTo).searchParams.get('code')!;
  return engine.stores.authorizationCodes.all().find((c) => c.codeHash === authorizationCodes.hash(code));
}

describe(ConsentService.name, () => {
  describe('check', () => {
    it('answers the client, the redirect URI and what each scope means', async () => {
      const { consent, portal } = await setUp();
      const prompt = await consent.check(anAuthorizationRequest(portal, { scope: 'jobs.read reports.read' }));
      expect(prompt).toEqual({
        client: portal.app,
        redirectUri: 'https://portal.example.com/callback',
        scopes: [
          { name: 'jobs.read', description: 'List and view job executions' },
          { name: 'reports.read', description: 'Read reports' },
        ],
      });
    });

    it('describes a wildcard by what it covers, leaving out the service-only scopes no user is granted', async () => {
      const { consent, portal } = await setUp();
      const prompt = await consent.check(anAuthorizationRequest(portal, { scope: 'jobs.*' }));
      expect(prompt.scopes).toEqual([
        { name: 'jobs.*', description: 'List and view job executions; Create, cancel, manage jobs' },
      ]);
    });

    it('refuses what the validator refuses', async () => {
      const { consent, portal } = await setUp();
      await expect(
        consent.check(anAuthorizationRequest(portal, { code_challenge: undefined })),
      ).rejects.toBeInstanceOf(AuthorizationRequestError);
    });
  });

  describe('decide', () => {
    it('redirects an approval to the redirect URI with a code and the state', async () => {
      const { decide } = await setUp();
      const redirectTo = new URL(await decide(true));
      expect(`${redirectTo.origin}${redirectTo.pathname}`).toBe('https://portal.example.com/callback');
      expect([...redirectTo.searchParams.keys()]).toEqual(['code', 'state', 'iss']);
      expect(redirectTo.searchParams.get('iss')).toBe(TEST_ISSUER);
      expect(redirectTo.searchParams.get('code')).toMatch(/^plat_ac_[A-Za-z0-9_-]{43}$/);
      expect(redirectTo.searchParams.get('state')).toBe('xyz');
    });

    it('stores the code as a hash, bound to user, client, redirect URI, scopes and challenge, for 60 s', async () => {
      const engine = await setUp();
      const redirectTo = await engine.decide(true, { scope: 'jobs.read' });
      expect(codeRecord(engine, redirectTo)).toEqual({
        codeHash: expect.any(String),
        grantId: expect.any(String),
        clientId: 'web-portal',
        userId: engine.user.id,
        redirectUri: 'https://portal.example.com/callback',
        scopes: ['jobs.read'],
        codeChallenge: PKCE_CHALLENGE,
        codeChallengeMethod: 'S256',
        session: { sid: expect.any(String), authTime: TEST_START },
        createdAt: TEST_START,
        expiresAt: new Date(TEST_START.getTime() + 60_000),
        consumedAt: null,
      });
    });

    it('starts a new grant with each approval', async () => {
      const engine = await setUp();
      const first = codeRecord(engine, await engine.decide(true));
      const second = codeRecord(engine, await engine.decide(true));
      expect(first!.grantId).not.toBe(second!.grantId);
    });

    it('encodes code and state for the query, keeping the query the URI was registered with', async () => {
      const { decide } = await setUp(['https://portal.example.com/cb?tenant=a%20b&x']);
      const redirectTo = await decide(true, { state: 'a b&c=d/é#' });
      expect(redirectTo).toMatch(
        /^https:\/\/portal\.example\.com\/cb\?tenant=a%20b&x&code=plat_ac_[A-Za-z0-9_-]{43}&state=/,
      );
      expect(redirectTo).not.toContain('#');
      expect(new URL(redirectTo).searchParams.get('state')).toBe('a b&c=d/é#');
      expect(new URL(redirectTo).searchParams.get('tenant')).toBe('a b');
    });

    it('leaves state out when the request had none', async () => {
      const { decide } = await setUp();
      expect(new URL(await decide(true, { state: undefined })).searchParams.has('state')).toBe(false);
    });

    it('redirects a denial with access_denied and the state, and issues no code', async () => {
      const { decide, stores } = await setUp();
      const redirectTo = await decide(false);
      expect(redirectTo).toBe(
        'https://portal.example.com/callback?error=access_denied&state=xyz&iss=https%3A%2F%2Fauth.example.com',
      );
      expect(stores.authorizationCodes.all()).toEqual([]);
    });

    it('audits the login, each approval and each denial, with the user as actor', async () => {
      const { decide, stores, user } = await setUp();
      await decide(true);
      await decide(false);

      const actions = stores.audit.all().filter((r) => r.actorId === user.id);
      expect(actions.map((r) => [r.action, r.outcome, r.target])).toEqual([
        ['user.login', 'success', user.id],
        ['consent.approved', 'success', 'web-portal'],
        ['consent.denied', 'denied', 'web-portal'],
      ]);
      expect(actions[1]).toMatchObject({ tenant: user.tenant, attributes: { scope: expect.any(String) } });
    });

    it('re-validates the request: a tampered redirect URI is refused, not redirected to', async () => {
      const { decide } = await setUp();
      await expect(decide(true, { redirect_uri: 'https://evil.example/callback' })).rejects.toMatchObject({
        code: 'invalid_request',
        redirectable: false,
      });
    });

    it('refuses an unknown, an expired and an ended session as unauthenticated', async () => {
      const engine = await setUp();
      const request = anAuthorizationRequest(engine.portal);
      await expectDomainError(
        engine.consent.decide({ request, session: 'forged', approved: true }),
        'unauthenticated',
      );

      const ended = await engine.sessions.create(TEST_IDENTITY);
      await engine.sessions.end(ended.session);
      await expectDomainError(
        engine.consent.decide({ request, session: ended.session, approved: true }),
        'unauthenticated',
      );

      engine.clock.advanceSeconds(8 * 3600);
      await expectDomainError(engine.decide(true), 'unauthenticated');
    });
  });
});
