import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { AuditedTransactor, AuditTrail } from '../audit/audit-trail';
import { ApplicationRegistry } from '../registry/application-registry';
import type { WebhookResponse, WebhookSender } from '../webhooks/webhook-delivery-worker';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from '../webhooks/webhook-retry';
import { sessionIdOf } from '../sessions/session';
import { sessionTokens } from '../tokens/opaque-token';
import {
  ADMIN_CLIENT_ID,
  aRefreshToken,
  anApplication,
  createTestEngine,
  expectDomainError,
  TEST_IDENTITY,
  TEST_ISSUER,
  type TestEngine,
} from '../testing/in-memory-stores';
import { BackchannelLogoutWorker } from './backchannel-logout-worker';
import { LogoutRequests } from './logout-request';
import { BACKCHANNEL_LOGOUT_EVENT, LogoutTokenIssuer } from './logout-token';

const PORTAL_LOGOUT_URI = 'https://portal.example/backchannel-logout';

/** A receiver answering the statuses given, one per POST (the last one again after). */
class ScriptedSender implements WebhookSender {
  readonly posts: Array<{ url: string; headers: Record<string, string>; body: string }> = [];

  constructor(private readonly statuses: number[]) {}

  async send(url: string, headers: Record<string, string>, body: string): Promise<WebhookResponse> {
    this.posts.push({ url, headers, body });
    const status = this.statuses[Math.min(this.posts.length - 1, this.statuses.length - 1)];
    return { status, error: null, excerpt: null };
  }
}

/** A signed-in user whose session began grants for two clients, one of them `offline_access`. */
async function sessionWithGrants(engine: TestEngine) {
  await engine.stores.applications.insertApplication(
    anApplication({
      clientId: 'portal',
      name: 'Portal',
      appType: 'web',
      backchannelLogoutUri: PORTAL_LOGOUT_URI,
    }),
  );
  await engine.stores.applications.insertApplication(
    anApplication({ clientId: 'reports', name: 'Reports', appType: 'web' }),
  );
  const { session, user } = await engine.sessions.create(TEST_IDENTITY);
  const sid = sessionIdOf(sessionTokens.hash(session));
  const stamp = { sid, authTime: engine.clock.now() };
  const online = aRefreshToken({
    grantId: 'grant-portal',
    clientId: 'portal',
    userId: user.id,
    session: stamp,
  });
  const offline = aRefreshToken({
    grantId: 'grant-reports',
    clientId: 'reports',
    userId: user.id,
    scopes: ['openid', 'offline_access'],
    session: stamp,
  });
  const elsewhere = aRefreshToken({
    grantId: 'grant-other-session',
    clientId: 'portal',
    userId: user.id,
    session: { sid: 'another-session', authTime: engine.clock.now() },
  });
  for (const token of [online, offline, elsewhere])
    await engine.stores.refreshTokens.insertRefreshToken(token.record);
  return { session, user, sid, online, offline, elsewhere };
}

function workerOf(engine: TestEngine, sender: WebhookSender): BackchannelLogoutWorker {
  return new BackchannelLogoutWorker(
    engine.stores.backchannelLogouts,
    engine.stores.applications,
    new LogoutTokenIssuer(engine.keys, TEST_ISSUER, engine.clock),
    sender,
    engine.transactor,
    new AuditTrail(engine.clock),
    engine.clock,
    { leaseMs: 20_000, random: () => 0 },
  );
}

describe('ending a session', () => {
  it('revokes the grants begun in it except offline_access ones, and queues the back-channel logouts', async () => {
    const engine = await createTestEngine();
    const { session, user, sid, online, offline, elsewhere } = await sessionWithGrants(engine);

    await expect(engine.sessions.end(session)).resolves.toEqual({
      ended: true,
      revokedGrants: 1,
      backchannelClients: ['portal'],
    });

    const tokens = engine.stores.refreshTokens.all();
    const revokedAt = (hash: string) => tokens.find((t) => t.tokenHash === hash)?.revokedAt;
    expect(revokedAt(online.record.tokenHash)).toEqual(engine.clock.now());
    expect(revokedAt(offline.record.tokenHash)).toBeNull();
    expect(revokedAt(elsewhere.record.tokenHash)).toBeNull();
    // Through the revocation path: the deny-list the sidecars follow, and the audit log.
    expect(engine.stores.revocations.all()).toEqual([
      expect.objectContaining({ kind: 'grant', value: 'grant-portal' }),
    ]);
    expect(engine.stores.backchannelLogouts.listBackchannelLogoutsOfSession(sid)).resolves.toEqual([
      expect.objectContaining({
        clientId: 'portal',
        subject: user.id,
        sid,
        tenant: 'acme',
        state: 'pending',
      }),
    ]);
    // Token events are audited one for one by the control plane's transactor.
    expect(engine.stores.tokenEvents.all()).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'grant.revoked', grantId: 'grant-portal' })]),
    );
    expect(engine.stores.audit.all().find((r) => r.action === 'user.logout')).toMatchObject({
      actorId: user.id,
      tenant: 'acme',
      attributes: { sid, grants_revoked: 1, backchannel_clients: 'portal' },
    });
  });

  it('does nothing more for a session that had ended already', async () => {
    const engine = await createTestEngine();
    const { session, sid } = await sessionWithGrants(engine);
    await engine.sessions.end(session);

    await expect(engine.sessions.end(session)).resolves.toMatchObject({ ended: false });
    await expect(engine.stores.backchannelLogouts.listBackchannelLogoutsOfSession(sid)).resolves.toHaveLength(
      1,
    );
  });
});

describe(BackchannelLogoutWorker.name, () => {
  it('posts a logout token the client verifies against the key set, and retries after a failure', async () => {
    const engine = await createTestEngine();
    const { session, user, sid } = await sessionWithGrants(engine);
    await engine.sessions.end(session);
    const sender = new ScriptedSender([500, 200]);
    const worker = workerOf(engine, sender);

    await expect(worker.deliverDue()).resolves.toBe(1);
    const [logout] = await engine.stores.backchannelLogouts.listBackchannelLogoutsOfSession(sid);
    expect(logout).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 500, leaseUntil: null });
    expect(logout.nextAttemptAt).toEqual(new Date(engine.clock.now().getTime() + WEBHOOK_RETRY_DELAYS_MS[0]));
    await expect(worker.deliverDue()).resolves.toBe(0); // not due yet

    engine.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]);
    await expect(worker.deliverDue()).resolves.toBe(1);
    await expect(engine.stores.backchannelLogouts.listBackchannelLogoutsOfSession(sid)).resolves.toEqual([
      expect.objectContaining({ state: 'succeeded', attempts: 2, lastStatus: 200 }),
    ]);

    expect(sender.posts).toHaveLength(2);
    const post = sender.posts[1];
    expect(post.url).toBe(PORTAL_LOGOUT_URI);
    expect(post.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const token = new URLSearchParams(post.body).get('logout_token')!;
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'RS256', typ: 'logout+jwt' });
    const { payload } = await jwtVerify(token, createLocalJWKSet(engine.keys.publicJwks()), {
      issuer: TEST_ISSUER,
      audience: 'portal',
      typ: 'logout+jwt',
      algorithms: ['RS256'],
      currentDate: engine.clock.now(),
    });
    expect(payload).toMatchObject({ sub: user.id, sid, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } });
    expect(payload).not.toHaveProperty('nonce');
    expect(payload.exp! - payload.iat!).toBe(120);
    expect(payload.jti).toEqual(expect.any(String));
    // Each attempt carries a token of its own.
    expect(new URLSearchParams(sender.posts[0].body).get('logout_token')).not.toBe(token);
    expect(engine.stores.audit.all().find((r) => r.action === 'logout.backchannel_delivered')).toMatchObject({
      target: 'portal',
      outcome: 'success',
      attributes: { sid, attempts: 2, status: 200 },
    });
  });

  it('gives a logout up after the webhooks’ last attempt, audited', async () => {
    const engine = await createTestEngine();
    const { session, sid } = await sessionWithGrants(engine);
    await engine.sessions.end(session);
    const sender = new ScriptedSender([503]);
    const worker = workerOf(engine, sender);

    for (let attempt = 1; attempt <= WEBHOOK_MAX_ATTEMPTS; attempt += 1) {
      await expect(worker.deliverDue()).resolves.toBe(1);
      engine.clock.advance(WEBHOOK_RETRY_DELAYS_MS[attempt - 1] ?? 0);
    }
    await expect(worker.deliverDue()).resolves.toBe(0);

    expect(sender.posts).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    await expect(engine.stores.backchannelLogouts.listBackchannelLogoutsOfSession(sid)).resolves.toEqual([
      expect.objectContaining({ state: 'dead', attempts: WEBHOOK_MAX_ATTEMPTS, lastStatus: 503 }),
    ]);
    expect(engine.stores.audit.all().filter((r) => r.action === 'logout.backchannel_failed')).toEqual([
      expect.objectContaining({ outcome: 'failure', target: 'portal' }),
    ]);
  });

  it('gives a logout up at once when the app no longer has a back-channel logout URI', async () => {
    const engine = await createTestEngine();
    const { session, sid } = await sessionWithGrants(engine);
    await engine.sessions.end(session);
    await engine.stores.applications.updateApplicationExchange('portal', { backchannelLogoutUri: null });
    const sender = new ScriptedSender([200]);

    await workerOf(engine, sender).deliverDue();

    expect(sender.posts).toHaveLength(0);
    await expect(engine.stores.backchannelLogouts.listBackchannelLogoutsOfSession(sid)).resolves.toEqual([
      expect.objectContaining({
        state: 'dead',
        lastError: 'the application has no backchannel_logout_uri any more',
      }),
    ]);
  });
});

describe(LogoutRequests.name, () => {
  async function setUp() {
    const engine = await createTestEngine();
    await engine.stores.applications.insertApplication(
      anApplication({
        clientId: 'portal',
        name: 'Portal',
        appType: 'web',
        postLogoutRedirectUris: ['https://portal.example/signed-out'],
      }),
    );
    const { session, user } = await engine.sessions.create(TEST_IDENTITY);
    const sid = sessionIdOf(sessionTokens.hash(session));
    const hint = await engine.idTokens.issue({
      clientId: 'portal',
      userId: user.id,
      accessToken: 'an-access-token',
      session: { sid, authTime: engine.clock.now() },
    });
    const requests = new LogoutRequests(
      engine.stores.applications,
      engine.stores.sessions,
      engine.idTokens,
      engine.clock,
    );
    return { engine, session, user, sid, hint, requests };
  }

  it('sends the browser to a registered post_logout_redirect_uri with state, and needs no confirmation for a matching hint', async () => {
    const { engine, session, hint, requests } = await setUp();
    engine.clock.advance(2 * 3600 * 1000); // the hint expired: still accepted

    await expect(
      requests.check(
        { idTokenHint: hint, postLogoutRedirectUri: 'https://portal.example/signed-out', state: 'xyz' },
        session,
      ),
    ).resolves.toEqual({
      client: { clientId: 'portal', name: 'Portal' },
      redirectTo: 'https://portal.example/signed-out?state=xyz',
      sessionLive: true,
      hintMatchesSession: true,
    });
  });

  it('asks for confirmation without a hint, or with a hint of another session', async () => {
    const { engine, session, user, requests } = await setUp();
    const otherSession = await engine.idTokens.issue({
      clientId: 'portal',
      userId: user.id,
      accessToken: 'an-access-token',
      session: { sid: 'another-session', authTime: engine.clock.now() },
    });

    await expect(requests.check({ clientId: 'portal' }, session)).resolves.toMatchObject({
      sessionLive: true,
      hintMatchesSession: false,
      redirectTo: null,
    });
    await expect(requests.check({ idTokenHint: otherSession }, session)).resolves.toMatchObject({
      hintMatchesSession: false,
    });
  });

  it('refuses an unregistered post_logout_redirect_uri, a foreign hint and a client that is not its audience', async () => {
    const { engine, hint, requests } = await setUp();
    const accessToken = (await engine.accessTokens.issue({ subject: 'x', clientId: 'portal', scopes: [] }))
      .token;

    await expectDomainError(
      requests.check({ clientId: 'portal', postLogoutRedirectUri: 'https://evil.example/' }, undefined),
      'validation_failed',
    );
    await expectDomainError(
      requests.check({ postLogoutRedirectUri: 'https://portal.example/signed-out' }, undefined),
      'validation_failed',
    );
    await expectDomainError(requests.check({ idTokenHint: accessToken }, undefined), 'validation_failed');
    await expectDomainError(
      requests.check({ idTokenHint: hint, clientId: 'reports' }, undefined),
      'validation_failed',
    );
    await expectDomainError(requests.check({ clientId: 'nobody' }, undefined), 'validation_failed');
  });
});

describe('logout fields of the registry', () => {
  const webApp = (extra: object) => ({
    clientId: 'portal',
    name: 'Portal',
    appType: 'web',
    declaredScopes: ['jobs.read'],
    redirectUris: ['https://portal.example/callback'],
    ...extra,
  });

  it('registers and changes post_logout_redirect_uris and backchannel_logout_uri, audited as app.updated', async () => {
    const engine = await createTestEngine();
    const { app } = await engine.registry.register(
      webApp({
        postLogoutRedirectUris: ['https://portal.example/signed-out'],
        backchannelLogoutUri: PORTAL_LOGOUT_URI,
      }),
    );
    expect(app).toMatchObject({
      postLogoutRedirectUris: ['https://portal.example/signed-out'],
      backchannelLogoutUri: PORTAL_LOGOUT_URI,
    });

    const audited = new ApplicationRegistry(
      engine.stores.applications,
      engine.scopeRegistry,
      engine.hasher,
      new AuditedTransactor(engine.transactor, new AuditTrail(engine.clock)),
      { accessTokenLifetimeSeconds: 3600, adminClientId: ADMIN_CLIENT_ID },
      engine.clock,
    );
    const updated = await audited.updateExchange('portal', {
      postLogoutRedirectUris: [],
      backchannelLogoutUri: 'https://portal.example/logout-2',
    });
    expect(updated.postLogoutRedirectUris ?? []).toEqual([]);
    expect(updated.backchannelLogoutUri).toBe('https://portal.example/logout-2');
    expect(engine.stores.audit.all().find((r) => r.action === 'app.updated')?.attributes).toMatchObject({
      post_logout_redirect_uris: '',
      backchannel_logout_uri: 'https://portal.example/logout-2',
    });
  });

  it('holds the URIs to the redirect URI and webhook URL rules, and refuses them to service apps', async () => {
    const engine = await createTestEngine();
    await expectDomainError(
      engine.registry.register(webApp({ postLogoutRedirectUris: ['https://portal.example/out#here'] })),
      'validation_failed',
    );
    await expectDomainError(
      engine.registry.register(webApp({ backchannelLogoutUri: 'http://portal.example/logout' })),
      'validation_failed',
    );
    await expectDomainError(
      engine.registry.register(webApp({ backchannelLogoutUri: 'https://127.0.0.1/logout' })),
      'validation_failed',
    );
    await expectDomainError(
      engine.registry.register({
        clientId: 'worker',
        name: 'Worker',
        appType: 'service',
        declaredScopes: ['jobs.read'],
        backchannelLogoutUri: PORTAL_LOGOUT_URI,
      }),
      'validation_failed',
    );
    await engine.registry.register(webApp({}));
    await expectDomainError(
      engine.registry.updateExchange('portal', { postLogoutRedirectUris: ['http://portal.example/out'] }),
      'validation_failed',
    );
  });
});
