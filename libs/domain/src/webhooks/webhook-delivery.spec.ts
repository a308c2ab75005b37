import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { AuditTrail } from '../audit/audit-trail';
import type { AuditActor } from '../audit/audit-trail';
import { ManualClock } from '../clock';
import {
  expectDomainError,
  InMemoryStores,
  InMemoryTransactor,
  TEST_ENVELOPE,
} from '../testing/in-memory-stores';
import { Envelope } from '../secrets/envelope';
import { WebhookDeliveryWorker, type WebhookResponse, type WebhookSender } from './webhook-delivery-worker';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookRegistry } from './webhook-registry';

const admin: AuditActor = { kind: 'app', id: 'platform-admin' };

/** Answers with the statuses it is given, in turn (the last one for ever), and keeps what came. */
class ScriptedReceiver implements WebhookSender {
  readonly received: Array<{ url: string; headers: Record<string, string>; body: string }> = [];
  constructor(private readonly script: Array<number | null> = [204]) {}

  async send(url: string, headers: Record<string, string>, body: string): Promise<WebhookResponse> {
    this.received.push({ url, headers, body });
    const status = this.script.length > 1 ? this.script.shift()! : this.script[0];
    return status === null
      ? { status: null, error: 'connect ECONNREFUSED', excerpt: null }
      : { status, error: null, excerpt: status >= 300 ? 'try later' : null };
  }

  messages(): Array<{ type: string; sequence_id: number }> {
    return this.received.map((r) => JSON.parse(r.body));
  }
}

function setUp(script?: Array<number | null>, envelope = TEST_ENVELOPE, stores = new InMemoryStores()) {
  const clock = new ManualClock(new Date());
  const transactor = new InMemoryTransactor(stores);
  const trail = new AuditTrail(clock);
  const registry = new WebhookRegistry(
    stores.webhooks,
    transactor,
    trail,
    clock,
    { allowPrivateNetworks: false },
    envelope,
  );
  const dispatcher = new WebhookDispatcher(stores, transactor, () => clock.now());
  const receiver = new ScriptedReceiver(script);
  const worker = new WebhookDeliveryWorker(
    stores.webhooks,
    stores.audit,
    receiver,
    (record) => JSON.stringify({ type: record.action, sequence_id: record.sequenceId }),
    clock,
    envelope,
    { perEndpoint: 4, leaseMs: 30_000, random: () => 0 },
  );
  const emit = (action: string, tenant: string | null = 'acme') =>
    stores.audit.appendAuditRecords([trail.record({ actor: admin, action, tenant })]);
  /** Fans out everything new and attempts what is due, as the control plane's loop does. */
  const run = async () => {
    while ((await dispatcher.dispatchOnce()) > 0);
    while ((await worker.deliverDue()) > 0);
  };
  return { stores, clock, registry, receiver, emit, run };
}

describe('webhook delivery', () => {
  it('delivers the records an endpoint subscribes to, from its registration on, signed', async () => {
    const { registry, receiver, emit, run } = setUp();
    await emit('token.issued'); // before the endpoint: not delivered
    const endpoint = await registry.register(
      { url: 'https://hooks.example.com/in', eventTypes: ['token.*'], tenant: 'acme' },
      admin,
    );
    await emit('token.issued');
    await emit('token.revoked', 'globex'); // another tenant
    await emit('app.registered'); // another event type
    await emit('token.revoked');
    await run();

    expect(receiver.messages()).toEqual([
      { type: 'token.issued', sequence_id: 3 },
      { type: 'token.revoked', sequence_id: 6 },
    ]);
    for (const { headers, body, url } of receiver.received) {
      expect(url).toBe('https://hooks.example.com/in');
      expect(new Webhook(endpoint.secret).verify(body, headers)).toEqual(JSON.parse(body));
    }
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual(['msg_3', 'msg_6']);
  });

  it('retries a failing receiver on the schedule and logs every attempt', async () => {
    const { registry, receiver, emit, run, clock } = setUp([503, null, 200]);
    const endpoint = await registry.register(
      { url: 'https://hooks.example.com/in', eventTypes: ['*'] },
      admin,
    );
    await emit('token.issued');
    await run();
    clock.advance(4_999);
    await run();
    expect(receiver.received).toHaveLength(1);
    clock.advance(1);
    await run();
    clock.advance(300_000);
    await run();

    const [delivery] = await registry.deliveries({ endpointId: endpoint.id, limit: 10 });
    expect(delivery).toMatchObject({ state: 'succeeded', attempts: 3 });
    expect(delivery.log.map((a) => [a.attempt, a.status, a.error, a.responseExcerpt])).toEqual([
      [1, 503, null, 'try later'],
      [2, null, 'connect ECONNREFUSED', null],
      [3, 200, null, null],
    ]);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set(['msg_2']));
  });

  it('dead-letters a delivery after the eighth failed attempt, and a replay sends it again', async () => {
    const { registry, receiver, emit, run, clock } = setUp([500]);
    const endpoint = await registry.register(
      { url: 'https://hooks.example.com/in', eventTypes: ['token.*'] },
      admin,
    );
    await emit('token.issued');
    for (let hour = 0; hour < 40; hour++) {
      await run();
      clock.advance(3_600_000);
    }
    const [dead] = await registry.deliveries({ endpointId: endpoint.id, state: 'dead', limit: 10 });
    expect(dead.attempts).toBe(8);
    expect(receiver.received).toHaveLength(8);

    const replay = await registry.replayDelivery(endpoint.id, dead.id, admin);
    expect(replay).toMatchObject({ replayOf: dead.id, state: 'pending', sequenceId: dead.sequenceId });
    await run();
    expect(receiver.received).toHaveLength(9);
    expect(receiver.received[8].headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id']);
    await expectDomainError(registry.replayDelivery(endpoint.id, 999, admin), 'not_found');
  });

  it('replays a time range of what the endpoint subscribes to, even from before it existed', async () => {
    const { registry, receiver, emit, run, clock } = setUp();
    const since = clock.now();
    await emit('token.issued');
    await emit('scope.defined');
    clock.advance(1_000);
    await emit('token.revoked');
    const endpoint = await registry.register(
      { url: 'https://hooks.example.com/in', eventTypes: ['token.*'] },
      admin,
    );

    await expect(
      registry.replayRange(endpoint.id, since, new Date(since.getTime() + 1_000), admin),
    ).resolves.toBe(1);
    await run();
    expect(receiver.messages()).toEqual([{ type: 'token.issued', sequence_id: 1 }]);
    await expectDomainError(registry.replayRange(endpoint.id, since, since, admin), 'validation_failed');
  });

  it('queues nothing for a disabled endpoint, and nothing from its disabled time once enabled', async () => {
    const { registry, receiver, emit, run } = setUp();
    const endpoint = await registry.register(
      { url: 'https://hooks.example.com/in', eventTypes: ['token.*'], enabled: false },
      admin,
    );
    await emit('token.issued');
    await run();
    await registry.update(endpoint.id, { enabled: true }, admin);
    await emit('token.revoked');
    await run();
    expect(receiver.messages().map((m) => m.type)).toEqual(['token.revoked']);
  });

  it('signs with the old and the new secret during a rotation, then with the new one alone', async () => {
    const { registry, receiver, emit, run, clock } = setUp();
    const endpoint = await registry.register(
      { url: 'https://hooks.example.com/in', eventTypes: ['token.*'] },
      admin,
    );
    const rotated = await registry.rotateSecret(endpoint.id, admin, 3_600);
    expect(rotated.secret).not.toBe(endpoint.secret);
    await emit('token.issued');
    await run();
    const [during] = receiver.received;
    for (const secret of [endpoint.secret, rotated.secret]) {
      expect(() => new Webhook(secret).verify(during.body, during.headers)).not.toThrow();
    }

    clock.advance(3_600_001);
    await emit('token.revoked');
    await run();
    const after = receiver.received[1];
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    jest.spyOn(Date, 'now').mockReturnValue(clock.now().getTime());
    expect(() => new Webhook(rotated.secret).verify(after.body, after.headers)).not.toThrow();
    expect(() => new Webhook(endpoint.secret).verify(after.body, after.headers)).toThrow();
    jest.restoreAllMocks();
    await expectDomainError(registry.rotateSecret(endpoint.id, admin, 8 * 86_400), 'validation_failed');
  });

  it('keeps every record for a receiver that was down, and audits each admin change', async () => {
    const { registry, receiver, emit, run, clock, stores } = setUp([null, null, null, 204]);
    const endpoint = await registry.register(
      { url: 'https://hooks.example.com/in', eventTypes: ['token.*'] },
      admin,
    );
    for (let i = 0; i < 3; i++) await emit('token.issued');
    await run();
    clock.advance(5_000);
    await run();
    clock.advance(300_000);
    await run();
    const delivered = new Set(receiver.received.filter((_, i) => i >= 3).map((r) => r.headers['webhook-id']));
    expect(delivered).toEqual(new Set(['msg_2', 'msg_3', 'msg_4']));

    await registry.update(endpoint.id, { description: 'renamed' }, admin);
    await registry.delete(endpoint.id, admin);
    await expectDomainError(registry.get(endpoint.id), 'not_found');
    expect(
      stores.audit
        .all()
        .filter((r) => r.action.startsWith('webhook.'))
        .map((r) => [r.action, r.target]),
    ).toEqual([
      ['webhook.registered', endpoint.id],
      ['webhook.updated', endpoint.id],
      ['webhook.deleted', endpoint.id],
    ]);
  });

  describe('secrets at rest', () => {
    const register = (registry: WebhookRegistry, url = 'https://hooks.example.com/in') =>
      registry.register({ url, eventTypes: ['token.*'] }, admin);
    const verifies = (secret: string, message: { body: string; headers: Record<string, string> }) =>
      expect(new Webhook(secret).verify(message.body, message.headers)).toEqual(JSON.parse(message.body));

    it('stores a secret sealed and bound to its endpoint: copied onto another it does not sign', async () => {
      const { registry, receiver, emit, run, stores } = setUp();
      const first = await register(registry, 'https://hooks.example.com/first');
      const second = await register(registry, 'https://hooks.example.com/second');
      const stored = (await stores.webhooks.findWebhookEndpoint(first.id))!;
      expect(JSON.parse(stored.storedSecret)).toEqual({
        sealed: expect.objectContaining({ kekId: TEST_ENVELOPE.currentKekId }),
      });
      expect(stored.storedSecret).not.toContain(first.secret.slice('whsec_'.length));

      await emit('token.issued');
      await run();
      verifies(
        first.secret,
        receiver.received.find((r) => r.url === first.url)!,
      );
      verifies(
        second.secret,
        receiver.received.find((r) => r.url === second.url)!,
      );
      await stores.webhooks.updateWebhookEndpoint({
        ...(await stores.webhooks.findWebhookEndpoint(second.id))!,
        storedSecret: stored.storedSecret,
      });
      await emit('token.revoked');
      await run();
      const [log] = await registry.deliveries({ endpointId: second.id, state: 'pending', limit: 10 });
      expect(log.log[0]).toMatchObject({ status: null, error: expect.stringContaining('does not verify') });
      expect(log.log[0].error).not.toContain(first.secret);
    });

    it('signs with a secret an earlier release stored in the clear, and seals it once', async () => {
      const { registry, receiver, emit, run, stores } = setUp();
      const endpoint = await register(registry);
      const clear = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
      await stores.webhooks.updateWebhookEndpoint({
        ...(await stores.webhooks.findWebhookEndpoint(endpoint.id))!,
        storedSecret: clear,
      });
      await emit('token.issued');
      await run();
      verifies(clear, receiver.received[0]);

      expect(await registry.sealClearSecrets()).toEqual({ sealed: 1, damaged: [] });
      expect((await stores.webhooks.findWebhookEndpoint(endpoint.id))!.storedSecret).not.toContain(clear);
      expect(await registry.sealClearSecrets()).toEqual({ sealed: 0, damaged: [] });
      await emit('token.revoked');
      await run();
      verifies(clear, receiver.received[1]);
    });

    it('seals the other clear secrets past a damaged one, names it and leaves it as it is', async () => {
      const { registry, stores } = setUp();
      const damagedOne = await register(registry);
      const clearOne = await register(registry);
      const store = async (id: string, storedSecret: string) =>
        stores.webhooks.updateWebhookEndpoint({
          ...(await stores.webhooks.findWebhookEndpoint(id))!,
          storedSecret,
        });
      await store(damagedOne.id, '{"sealed":{"ciphertext":"');
      await store(clearOne.id, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');

      expect(await registry.sealClearSecrets()).toEqual({ sealed: 1, damaged: [damagedOne.id] });
      expect((await stores.webhooks.findWebhookEndpoint(damagedOne.id))!.storedSecret).toBe(
        '{"sealed":{"ciphertext":"',
      );
      expect((await stores.webhooks.findWebhookEndpoint(clearOne.id))!.storedSecret).toMatch(/^\{"sealed":/);
      // A rewrap, which an administrator asks for, still stops there and says why.
      await expect(registry.rewrapSecrets()).rejects.toMatchObject({ code: 'unavailable' });
    });

    it('moves sealed secrets under a new KEK; then the old KEK is no longer needed', async () => {
      const oldKek = randomBytes(32);
      const newKek = randomBytes(32);
      const before = setUp(undefined, new Envelope(oldKek));
      const endpoint = await before.registry.register(
        { url: 'https://hooks.example.com/in', eventTypes: ['token.*'] },
        admin,
      );
      await before.registry.rotateSecret(endpoint.id, admin, 3_600);
      const rolled = setUp(undefined, new Envelope(newKek, [oldKek]), before.stores).registry;
      expect(await rolled.sealClearSecrets()).toEqual({ sealed: 0, damaged: [] });
      expect(await rolled.rewrapSecrets()).toBe(1);
      expect(await rolled.rewrapSecrets()).toBe(0);

      const after = setUp(undefined, new Envelope(newKek), before.stores);
      await after.emit('token.issued');
      await after.run();
      verifies(endpoint.secret, after.receiver.received[0]);
      expect(after.receiver.received[0].headers['webhook-signature'].split(' ')).toHaveLength(2);
    });
  });

  it('refuses bad registrations with a validation error', async () => {
    const { registry } = setUp();
    await expectDomainError(
      registry.register({ url: 'https://10.0.0.1/', eventTypes: ['*'] }, admin),
      'validation_failed',
    );
    await expectDomainError(
      registry.register({ url: 'https://hooks.example.com/', eventTypes: [] }, admin),
      'validation_failed',
    );
    await expectDomainError(
      registry.register({ url: 'https://hooks.example.com/', eventTypes: ['Token Issued'] }, admin),
      'validation_failed',
    );
  });
});
