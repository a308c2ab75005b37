import * as grpc from '@grpc/grpc-js';
import type { AuditRecordDto, AuditRecordPageDto, RegisteredWebhookDto } from '@platform/contract';
import { type AuthorizeResponse, type AuthServiceClient, createAuthServiceClient } from '@platform/grpc';
import { decodeJwt } from 'jose';
import * as client from 'openid-client';
import { unaryCall } from '../../support/grpc';
import {
  createSession,
  identityOf,
  signIn,
  untilRejected,
  type TestIdentity,
} from '../../support/internal-consent';
import { adminToken, discover, registerApp, type RegisteredApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { ACCESS_TOKEN_TYPE, refusal, TOKEN_EXCHANGE } from './exchange-client';

/** The platform's own subject token type: the subject named by its user id (docs/tokens.md). */
const USER_ID_TOKEN_TYPE = 'urn:platform:params:oauth:token-type:user_id';
const REASON = 'ticket 4711: the user cannot see their jobs';
/** What the console's support engineers sign in with. */
const SCOPE = 'users.impersonate users.read users.write jobs.read jobs.write';

/** Its own tenants, apps, users and webhook on the shared platform; only its own tenants' policies change. */
const ACME = 'impersonation-acme';
const GLOBEX = 'impersonation-globex';
/** The tenant whose policy the file turns to read_only, then disabled. */
const STRICT = 'impersonation-strict';

/**
 * Impersonation (docs/tokens.md) through the built processes: a support console, its engineers
 * signed in through it, tokens as users of their tenants, seen by the backend and the sidecar.
 * Expiry after IMPERSONATION_MAX_LIFETIME_SECONDS (900 s) is not waited for on a running
 * platform: the unit spec (libs/domain/src/grants/token-exchange.grant.spec.ts) covers it with a
 * manual clock; here the answer's expires_in and the audited expires_at say it.
 */
describe('impersonation: a support engineer obtains a token as a user of its tenant', () => {
  let platform: TestPlatform;
  let admin: string;
  let supportConsole: RegisteredApp;
  let portal: RegisteredApp;
  let sidecar: AuthServiceClient;
  /** Users to impersonate: a plain user and a global_admin of acme, a user of the strict tenant. */
  let ada: string;
  let gina: string;
  let sam: string;

  beforeAll(async () => {
    platform = sharedPlatform();
    admin = await adminToken(await discover(platform), platform);
    const consoleApp = (clientId: string, impersonation: boolean) =>
      registerApp(platform, admin, {
        client_id: clientId,
        app_type: 'web',
        declared_scopes: ['users.*', 'jobs.*'],
        redirect_uris: [`https://${clientId}.example.test/callback`],
        impersonation_allowed: impersonation,
      });
    supportConsole = await consoleApp('impersonation-console', true);
    portal = await consoleApp('impersonation-portal', false);
    const userId = async (identity: TestIdentity) => (await createSession(platform, identity)).user.id;
    ada = await userId(identityOf('impersonation-ada', ACME, ['user']));
    gina = await userId(identityOf('impersonation-gina', ACME, ['global_admin']));
    sam = await userId(identityOf('impersonation-sam', STRICT, ['user']));
    sidecar = createAuthServiceClient(platform.sidecarAddress);
  });
  afterAll(() => sidecar?.close());

  /** `who` signed in to `app` (the console by default): its openid-client configuration and tokens. */
  const engineer = async (who: TestIdentity, app = supportConsole) => {
    const { config, tokens, user } = await signIn(platform, app, { identity: who, scope: SCOPE });
    return { config, token: tokens.access_token, refreshToken: tokens.refresh_token!, id: user.id };
  };
  const tina = () => engineer(identityOf('impersonation-tina', ACME, ['tenant_admin']));

  /** The token exchange the console sends: the user by id, the engineer's own token as the actor. */
  const impersonate = (
    actor: { config: client.Configuration; token: string },
    userId: string,
    extra: Record<string, string> = {},
  ) =>
    client.genericGrantRequest(actor.config, TOKEN_EXCHANGE, {
      subject_token: userId,
      subject_token_type: USER_ID_TOKEN_TYPE,
      actor_token: actor.token,
      actor_token_type: ACCESS_TOKEN_TYPE,
      reason: REASON,
      ...extra,
    });

  const api = (token: string, path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${platform.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
    });
  const submitJob = (token: string, tenant: string) =>
    api(token, `/api/v1/tenants/${tenant}/jobs`, {
      method: 'POST',
      body: { type: 'impersonation.report', payload: { for: 'support' } },
    });
  const auditOf = async (jti: string): Promise<AuditRecordDto[]> => {
    const query = new URLSearchParams({ action: 'token.impersonated', target: jti });
    const response = await api(admin, `/api/v1/audit/records?${query}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as AuditRecordPageDto).records;
  };
  const setPolicy = async (token: string, tenant: string, mode: string) => {
    const path = `/api/v1/tenants/${tenant}/impersonation-policy`;
    const put = await api(token, path, { method: 'PUT', body: { mode } });
    expect(put.status).toBe(200);
    expect(await (await api(token, path)).json()).toEqual({ tenant, mode });
  };
  const authorize = (token: string, action: string, tenant: string) =>
    unaryCall<AuthorizeResponse>((metadata, options, done) =>
      sidecar.Authorize({ token, action, resource_tenant: tenant }, metadata, options, done),
    );

  it('gives a tenant_admin a 15-minute token as a user of its tenant, naming it in act, never refreshed', async () => {
    const actor = await tina();
    const response = await impersonate(actor, ada, { scope: 'jobs.read jobs.write' });

    expect(response).toMatchObject({
      issued_token_type: ACCESS_TOKEN_TYPE,
      token_type: 'bearer',
      expires_in: 900,
      scope: 'jobs.read jobs.write',
    });
    expect(response.refresh_token).toBeUndefined();
    const claims = decodeJwt(response.access_token);
    expect(claims).toMatchObject({
      sub: ada,
      tenant: ACME,
      roles: ['user'],
      client_id: supportConsole.client_id,
      act: { sub: actor.id, client_id: supportConsole.client_id },
      impersonation: 'full',
      grant_id: decodeJwt(actor.token).grant_id,
    });
    // The reason is for the audit log, never in the token.
    expect(JSON.stringify(claims)).not.toContain(REASON);

    // The backend sees the user, and who acts for it; the user's own rights work (full mode).
    const me = await api(response.access_token, '/v1/me');
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      sub: ada,
      tenant: ACME,
      act: { sub: actor.id, client_id: supportConsole.client_id },
      impersonation: 'full',
    });
    expect((await api(response.access_token, `/api/v1/tenants/${ACME}/jobs`)).status).toBe(200);
    const submitted = await submitJob(response.access_token, ACME);
    expect(submitted.status).toBe(201);
    // What is done with the token is the user's, audited with who acted for it.
    const { id } = (await submitted.json()) as { id: string };
    const query = new URLSearchParams({ action: 'job.submitted', target: id });
    const { records } = (await (
      await api(admin, `/api/v1/audit/records?${query}`)
    ).json()) as AuditRecordPageDto;
    expect(records).toMatchObject([{ actor: { kind: 'user', id: ada }, attributes: { acted_by: actor.id } }]);
  });

  it('audits token.impersonated in the user’s tenant (who, whom, why, until when) and delivers it to the tenant’s webhook', async () => {
    const receiver = new WebhookReceiver();
    const url = await receiver.start();
    const registered = await api(admin, '/api/v1/webhooks', {
      method: 'POST',
      body: { url, event_types: ['token.impersonated'], tenant: ACME },
    });
    expect(registered.status).toBe(201);
    const webhook = (await registered.json()) as RegisteredWebhookDto;
    receiver.secrets.push(webhook.secret);
    try {
      const actor = await tina();
      const { access_token } = await impersonate(actor, ada);
      const { jti, iat } = decodeJwt(access_token);

      const [record, ...more] = await auditOf(jti!);
      expect(more).toEqual([]);
      expect(record).toMatchObject({
        tenant: ACME,
        actor: { kind: 'user', id: actor.id },
        action: 'token.impersonated',
        target: jti,
        attributes: expect.objectContaining({
          impersonator: actor.id,
          impersonator_tenant: ACME,
          reason: REASON,
          mode: 'full',
          expires_at: new Date((iat! + 900) * 1000).toISOString(),
        }),
      });

      await receiver.waitFor((received) => received.some((w) => w.message.data.target === jti));
      const delivered = receiver.of('token.impersonated').find((w) => w.message.data.target === jti)!;
      expect(delivered.verifiedWith).toEqual([webhook.secret]);
      expect(delivered.message.data).toEqual(record);
    } finally {
      await api(admin, `/api/v1/webhooks/${webhook.id}`, { method: 'DELETE' });
      await receiver.stop();
    }
  });

  it("ends with the engineer's grant: revoking its refresh token refuses the impersonation token", async () => {
    const actor = await tina();
    const { access_token } = await impersonate(actor, ada);
    expect((await api(access_token, '/v1/me')).status).toBe(200);

    await client.tokenRevocation(actor.config, actor.refreshToken);
    // The revocation reaches the sidecar through its stream.
    await untilRejected(platform, access_token);
  });

  it('refuses, as invalid_request, whoever may not impersonate this user, and a request without a reason', async () => {
    const actor = await tina();
    const viewer = await engineer(identityOf('impersonation-vera', ACME, ['viewer']));
    const otherTenantAdmin = await engineer(identityOf('impersonation-otto', GLOBEX, ['tenant_admin']));
    const refusals = {
      'a viewer of the tenant': await refusal(impersonate(viewer, ada)),
      'a tenant_admin of another tenant': await refusal(impersonate(otherTenantAdmin, ada)),
      'a global_admin target': await refusal(impersonate(actor, gina)),
      'an unknown user': await refusal(impersonate(actor, 'no-such-user')),
      'no reason': await refusal(impersonate(actor, ada, { reason: '' })),
      'an impersonation token as the actor': await refusal(
        impersonate({ ...actor, token: (await impersonate(actor, ada)).access_token }, ada),
      ),
    };
    for (const [who, answer] of Object.entries(refusals))
      expect({ who, answer }).toEqual({ who, answer: { status: 400, error: 'invalid_request' } });
  });

  it('refuses a client not registered for impersonation: unauthorized_client', async () => {
    const actor = await engineer(identityOf('impersonation-tina', ACME, ['tenant_admin']), portal);
    expect(await refusal(impersonate(actor, ada))).toEqual({ status: 400, error: 'unauthorized_client' });
  });

  describe("the tenant's policy", () => {
    const strictAdmin = () => engineer(identityOf('impersonation-stella', STRICT, ['tenant_admin']));

    it('read_only: the token reads, and every write is refused, at the backend and by the sidecar', async () => {
      const actor = await strictAdmin();
      await setPolicy(actor.token, STRICT, 'read_only');
      const { access_token } = await impersonate(actor, sam);
      expect(decodeJwt(access_token).impersonation).toBe('read_only');

      expect((await api(access_token, `/api/v1/tenants/${STRICT}/jobs`)).status).toBe(200);
      const write = await submitJob(access_token, STRICT);
      expect(write.status).toBe(403);
      expect(await write.json()).toMatchObject({ decided_by: ['impersonation-read-only'] });

      const read = await authorize(access_token, 'jobs.read', STRICT);
      expect(read.error).toBeNull();
      expect(read.response.claims).toMatchObject({ sub: sam, impersonation: 'read_only' });
      const denied = await authorize(access_token, 'jobs.write', STRICT);
      expect(denied.error?.code).toBe(grpc.status.PERMISSION_DENIED);
      expect(denied.error!.metadata.get('x-decided-by')).toEqual(['impersonation-read-only']);
    });

    it('disabled: the exchange is refused', async () => {
      const actor = await strictAdmin();
      await setPolicy(actor.token, STRICT, 'disabled');
      expect(await refusal(impersonate(actor, sam))).toEqual({ status: 400, error: 'invalid_request' });
    });
  });
});
