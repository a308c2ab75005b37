import type {
  AuditRecordPageDto,
  RegisteredWebhookDto,
  WebhookDeliveryDto,
  WebhookDeliveryPageDto,
  WebhookEndpointDto,
} from '@platform/contract';
import type * as oauth from 'oauth4webapi';
import { decodeJwt } from 'jose';
import {
  adminToken,
  clientCredentialsToken,
  discover,
  registerApp,
  type RegisteredApp,
} from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';
import { type ReceivedWebhook, WebhookReceiver } from '../../support/webhook-receiver';

/** Webhooks through the built processes, to a real HTTP receiver verifying with standardwebhooks. */
describe('webhooks', () => {
  let platform: TestPlatform;
  let as: oauth.AuthorizationServer;
  let receiver: WebhookReceiver;
  let receiverUrl: string;
  /** Where this test's endpoints point: a path of its own, so that late deliveries to an earlier test's endpoint are told apart. */
  let hooksUrl: string;
  let tests = 0;
  let worker: RegisteredApp;

  const admin = async () => adminToken(as, platform);
  const api = async (method: string, path: string, body?: unknown, token?: string) => {
    const response = await fetch(`${platform.baseUrl}/api/v1/webhooks${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token ?? (await admin())}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      body: text ? JSON.parse(text) : undefined,
    };
  };
  const register = async (body: Record<string, unknown> = {}) => {
    const { status, body: endpoint } = await api('POST', '', {
      url: hooksUrl,
      event_types: ['token.*'],
      ...body,
    });
    expect(status).toBe(201);
    receiver.secrets.push((endpoint as RegisteredWebhookDto).secret);
    return endpoint as RegisteredWebhookDto;
  };
  const issue = async () =>
    decodeJwt(
      (await clientCredentialsToken(as, { clientId: worker.client_id, clientSecret: worker.client_secret! }))
        .access_token,
    ).jti!;
  const sentHere = (w: ReceivedWebhook) => w.path === new URL(hooksUrl).pathname;
  const deliveriesOf = async (id: string, query = '') =>
    ((await api('GET', `/${id}/deliveries${query}`)).body as WebhookDeliveryPageDto).deliveries;

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    receiverUrl = await receiver.start();
    // A short timeout keeps the crash test's lease (timeout + 5 s) short.
    platform = await startPlatform({ env: { WEBHOOK_TIMEOUT_MS: '1000' } });
    as = await discover(platform);
    worker = await registerApp(platform, await admin(), { client_id: 'webhook-worker' });
  });
  beforeEach(() => {
    hooksUrl = `${receiverUrl}/${++tests}`;
  });
  afterAll(async () => {
    await platform?.stop();
    await receiver?.stop();
  });
  afterEach(async () => {
    for (const endpoint of (await api('GET', '')).body as WebhookEndpointDto[])
      await api('DELETE', `/${endpoint.id}`);
    receiver.received.length = 0;
    receiver.secrets = [];
    receiver.answer = () => 204;
  });

  it('delivers each new token event once, signed, carrying the audit record as the audit API shows it', async () => {
    const endpoint = await register({ description: 'token feed' });
    expect(endpoint).toMatchObject({
      url: hooksUrl,
      event_types: ['token.*'],
      tenant: null,
      enabled: true,
    });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const jti = await issue();

    const [delivered] = await receiver.waitFor((r) => r.some((w) => w.message.data.attributes.jti === jti));
    const received = receiver.received.find((w) => w.message.data.attributes.jti === jti)!;
    expect(received.verifiedWith).toEqual([endpoint.secret]);
    expect(received.message.type).toBe('token.issued');
    expect(received.id).toBe(`msg_${received.message.data.sequence_id}`);
    const records = (await (
      await fetch(`${platform.baseUrl}/api/v1/audit/records?action=token.issued&target=${jti}`, {
        headers: { authorization: `Bearer ${await admin()}` },
      })
    ).json()) as AuditRecordPageDto;
    expect(received.message.data).toEqual(records.records[0]);
    expect(delivered.headers['content-type']).toBe('application/json');

    const [log] = (await deliveriesOf(endpoint.id)).filter(
      (d) => d.sequence_id === received.message.data.sequence_id,
    );
    expect(log).toMatchObject({
      state: 'succeeded',
      attempts: 1,
      message_id: received.id,
      next_attempt_at: null,
    });
    expect(log.log).toEqual([expect.objectContaining({ attempt: 1, status: 204, error: null })]);
    // Nothing it did not subscribe to, and nothing from before it existed.
    expect(receiver.received.every((w) => w.message.type.startsWith('token.'))).toBe(true);
    expect((await api('GET', `/${endpoint.id}`)).body).not.toHaveProperty('secret');
  });

  it('retries a failed delivery after 5 s with the same webhook-id, and logs both attempts', async () => {
    const endpoint = await register();
    receiver.answer = ({ attempt }) => (attempt === 1 ? 503 : 200);
    const jti = await issue();
    const mine = () => receiver.received.filter((w) => w.message.data.attributes.jti === jti);
    await receiver.waitFor(() => mine().length === 1);

    const [pending] = (await deliveriesOf(endpoint.id, '?state=pending')).filter(
      (d) => d.event_type === 'token.issued',
    );
    expect(pending.log).toEqual([
      expect.objectContaining({ attempt: 1, status: 503, error: null, response_excerpt: 'not now' }),
    ]);
    const wait = Date.parse(pending.next_attempt_at!) - Date.parse(pending.log[0].at);
    expect(wait).toBeGreaterThanOrEqual(5_000);
    expect(wait).toBeLessThanOrEqual(6_100);

    await receiver.waitFor(() => mine().length === 2, 10_000);
    expect(mine()[1].id).toBe(mine()[0].id);
    expect(mine()[1].verifiedWith).toEqual([endpoint.secret]);
    await expect(
      (async () => {
        for (;;) {
          const [done] = (await deliveriesOf(endpoint.id)).filter((d) => d.id === pending.id);
          if (done.state === 'succeeded') return done.log.map((a) => a.status);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })(),
    ).resolves.toEqual([503, 200]);
  }, 30_000);

  it('replays one delivery and a time range, with the original webhook-id', async () => {
    const endpoint = await register();
    const since = new Date().toISOString();
    const jti = await issue();
    await receiver.waitFor((r) => r.some((w) => w.message.data.attributes.jti === jti));
    const [first] = (await deliveriesOf(endpoint.id)).filter((d) => d.event_type === 'token.issued');

    const replayed = await api('POST', `/${endpoint.id}/deliveries/${first.id}/replay`);
    expect(replayed.status).toBe(202);
    expect(replayed.body as WebhookDeliveryDto).toMatchObject({
      replay_of: first.id,
      state: 'pending',
      message_id: first.message_id,
    });
    await receiver.waitFor((r) => r.filter((w) => w.id === first.message_id).length === 2);

    const until = new Date(Date.now() + 1_000).toISOString();
    const range = await api('POST', `/${endpoint.id}/replay`, { since, until });
    expect(range).toMatchObject({ status: 202, body: { queued: expect.any(Number) } });
    expect(range.body.queued).toBeGreaterThanOrEqual(1);
    await receiver.waitFor((r) => r.filter((w) => w.id === first.message_id).length === 3);
  });

  it('signs with both secrets while a rotation overlaps', async () => {
    const endpoint = await register();
    const rotated = await api('POST', `/${endpoint.id}/secret`, { overlap_seconds: 600 });
    expect(rotated.status).toBe(200);
    const secret = (rotated.body as RegisteredWebhookDto).secret;
    expect(secret).not.toBe(endpoint.secret);
    expect(Date.parse(rotated.body.previous_secret_expires_at)).toBeGreaterThan(Date.now() + 590_000);
    receiver.secrets.push(secret);

    const jti = await issue();
    await receiver.waitFor((r) => r.some((w) => w.message.data.attributes.jti === jti));
    const received = receiver.received.find((w) => w.message.data.attributes.jti === jti)!;
    expect(received.verifiedWith.sort()).toEqual([endpoint.secret, secret].sort());
  });

  it('manages endpoints: disable, enable, list, change, delete, each audited', async () => {
    const endpoint = await register({ tenant: 'acme', enabled: false });
    expect(endpoint.enabled).toBe(false);
    await issue();
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(receiver.received.filter(sentHere)).toEqual([]);

    const changed = await api('PATCH', `/${endpoint.id}`, {
      enabled: true,
      event_types: ['app.*'],
      description: 'apps',
    });
    expect(changed).toMatchObject({
      status: 200,
      body: { enabled: true, event_types: ['app.*'], description: 'apps' },
    });
    expect((await api('GET', '')).body).toEqual([changed.body]);
    expect((await api('DELETE', `/${endpoint.id}`)).status).toBe(204);
    expect((await api('GET', `/${endpoint.id}`)).status).toBe(404);

    const audit = (await (
      await fetch(`${platform.baseUrl}/api/v1/audit/records?target=${endpoint.id}`, {
        headers: { authorization: `Bearer ${await admin()}` },
      })
    ).json()) as AuditRecordPageDto;
    expect(audit.records.map((r) => r.action)).toEqual([
      'webhook.registered',
      'webhook.updated',
      'webhook.deleted',
    ]);
    expect(JSON.stringify(audit.records)).not.toContain(endpoint.secret);
  });

  it('refuses bad input with a problem, and callers that are not admins', async () => {
    const problem = (detail: RegExp) => ({
      status: 400,
      type: expect.stringContaining('application/problem+json'),
      body: expect.objectContaining({ detail: expect.stringMatching(detail) }),
    });
    expect(await api('POST', '', { url: 'ftp://hooks.example.com/', event_types: ['*'] })).toMatchObject(
      problem(/http or https/),
    );
    expect(await api('POST', '', { url: receiverUrl, event_types: ['Token Issued'] })).toMatchObject(
      problem(/event type/),
    );
    expect(await api('POST', '', { url: receiverUrl, event_types: [] })).toMatchObject({ status: 400 });
    expect(await api('POST', '', { url: receiverUrl })).toMatchObject({ status: 400 });
    expect(await api('POST', '', { url: receiverUrl, event_types: 'token.*' })).toMatchObject({
      status: 400,
    });
    expect(await api('GET', '/wh_missing')).toMatchObject({
      status: 404,
      type: expect.stringContaining('problem+json'),
    });
    expect(await api('GET', '/wh_missing/deliveries?state=lost')).toMatchObject({ status: 400 });
    expect(await api('POST', '/wh_missing/deliveries/abc/replay')).toMatchObject({ status: 400 });
    expect(await api('POST', '/wh_missing/replay', { since: 'yesterday', until: 'today' })).toMatchObject({
      status: 400,
    });
    const endpoint = await register();
    expect(await api('POST', `/${endpoint.id}/secret`, { overlap_seconds: 8 * 86_400 })).toMatchObject({
      status: 400,
    });

    const workerToken = (
      await clientCredentialsToken(as, { clientId: worker.client_id, clientSecret: worker.client_secret! })
    ).access_token;
    expect((await api('GET', '', undefined, workerToken)).status).toBe(403);
    expect((await fetch(`${platform.baseUrl}/api/v1/webhooks`)).status).toBe(401);
  });

  it('loses nothing when the control plane is killed between the commits and their delivery', async () => {
    await register();
    const jtis = await Promise.all(Array.from({ length: 20 }, () => issue()));
    await platform.killProcess('control-plane'); // within the loop's 250 ms poll of the commits
    await platform.restartProcess('control-plane');

    await receiver.waitFor((r) => jtis.every((jti) => r.some((w) => w.message.data.attributes.jti === jti)));
    // This test's endpoint only: the admin tokens of the cleanup before it emit events too, which
    // can reach an earlier test's endpoint after the receiver forgot its secret.
    const mine = receiver.received.filter(sentHere);
    expect(mine.every((w) => w.verifiedWith.length === 1)).toBe(true);
  }, 30_000);

  it('loses nothing when the control plane is killed with an attempt in flight', async () => {
    const endpoint = await register();
    receiver.answer = ({ attempt }) => (attempt === 1 ? 'hang' : 204);
    const jti = await issue();
    const mine = () => receiver.received.filter((w) => w.message.data.attributes.jti === jti);
    await receiver.waitFor(() => mine().length === 1);

    await platform.killProcess('control-plane');
    await platform.restartProcess('control-plane');
    // The killed attempt's lease (1 s timeout + 5 s) runs out; the restarted process sends it again.
    await receiver.waitFor(() => mine().length === 2, 20_000);
    expect(mine()[1].id).toBe(mine()[0].id);
    expect(mine()[1].verifiedWith).toEqual([endpoint.secret]);
    const delivery = (await deliveriesOf(endpoint.id)).find((d) => d.message_id === mine()[0].id)!;
    expect(delivery).toMatchObject({ state: 'succeeded', attempts: 1 });
  }, 40_000);
});

describe('webhooks in production posture', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startPlatform({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
  });
  afterAll(async () => platform?.stop());

  it.each([
    'http://hooks.example.com/',
    'https://127.0.0.1/',
    'https://169.254.169.254/latest',
    'https://[::1]/',
    'https://localhost/',
    'https://10.0.0.8/',
  ])('refuses %s', async (url) => {
    const token = await adminToken(await discover(platform), platform);
    const response = await fetch(`${platform.baseUrl}/api/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, event_types: ['*'] }),
    });
    expect(response.status).toBe(400);
  });
});
