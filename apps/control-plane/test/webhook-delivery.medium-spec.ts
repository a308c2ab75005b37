import { randomBytes } from 'node:crypto';
import {
  AuditTrail,
  Envelope,
  ManualClock,
  WebhookDeliveryWorker,
  WebhookDispatcher,
  WebhookRegistry,
  type AuditActor,
} from '@platform/domain';
import { databaseDrivers, type SqlTestDatabase } from '../../../libs/persistence/test/support/drivers';
import { WebhookReceiver } from '../../../test/support/webhook-receiver';
import { HttpWebhookSender } from '../src/webhooks/http-webhook-sender';
import { webhookPayload } from '../src/webhooks/webhook-wire';

const admin: AuditActor = { kind: 'app', id: 'admin' };
const MINUTE = 60_000;

/**
 * Delivery over real HTTP to a receiver verifying with `standardwebhooks`, on each database, with
 * time driven by a manual clock: `Date.now` follows it, so the receiver's timestamp check agrees.
 */
describe.each(databaseDrivers())('webhook delivery on $name', (driver) => {
  let database: SqlTestDatabase;
  let receiver: WebhookReceiver;
  let url: string;
  const sender = new HttpWebhookSender({ timeoutMs: 1_000, allowPrivateNetworks: true });

  beforeAll(async () => {
    database = await driver.open();
    receiver = new WebhookReceiver();
    url = await receiver.start();
  });
  afterAll(async () => {
    await sender.close();
    await receiver?.stop();
    await database?.dispose();
  });
  beforeEach(async () => {
    await database.reset();
    receiver.received.length = 0;
    receiver.secrets = [];
    receiver.answer = () => 204;
  });
  afterEach(() => jest.restoreAllMocks());

  const envelope = new Envelope(randomBytes(32));

  function platform() {
    const clock = new ManualClock(new Date());
    jest.spyOn(Date, 'now').mockImplementation(() => clock.now().getTime());
    const { stores, transactor } = database;
    const trail = new AuditTrail(clock);
    const registry = new WebhookRegistry(
      stores.webhooks,
      transactor,
      trail,
      clock,
      { allowPrivateNetworks: true },
      envelope,
    );
    const dispatcher = new WebhookDispatcher(stores, transactor, () => clock.now());
    const worker = new WebhookDeliveryWorker(
      stores.webhooks,
      stores.audit,
      sender,
      webhookPayload,
      clock,
      envelope,
      {
        perEndpoint: 8,
        leaseMs: 6_000,
      },
    );
    return {
      clock,
      registry,
      register: async (path = '/hooks', eventTypes = ['token.*']) => {
        const endpoint = await registry.register({ url: url.replace('/hooks', path), eventTypes }, admin);
        receiver.secrets.push(endpoint.secret);
        return endpoint;
      },
      emit: (action: string, target: string) =>
        transactor.inTransaction((s) =>
          s.audit.appendAuditRecords([trail.record({ actor: admin, action, target })]),
        ),
      /** Fans out and attempts everything due now, as the loop does. */
      run: async () => {
        while ((await dispatcher.dispatchOnce()) > 0);
        while ((await worker.deliverDue()) > 0);
      },
    };
  }

  it('delivers a signed Standard Webhooks message the receiver verifies', async () => {
    const { register, emit, run } = platform();
    const endpoint = await register();
    const [record] = await emit('token.issued', 'jti-1');
    await run();

    expect(receiver.received).toEqual([
      expect.objectContaining({ id: `msg_${record.sequenceId}`, verifiedWith: [endpoint.secret] }),
    ]);
    expect(receiver.received[0].message).toMatchObject({
      type: 'token.issued',
      data: { sequence_id: record.sequenceId, target: 'jti-1', record_hash: record.recordHash },
    });
  });

  it('retries after a 500 on the schedule, then dead-letters after the eighth attempt, and replays', async () => {
    const { register, emit, run, clock, registry } = platform();
    const endpoint = await register();
    receiver.answer = () => 500;
    await emit('token.revoked', 'jti-2');
    await run();
    expect(receiver.received).toHaveLength(1);

    clock.advance(4_000);
    await run();
    expect(receiver.received).toHaveLength(1); // not due before 5 s
    clock.advance(2_100); // 5 s + at most 20 % jitter
    await run();
    expect(receiver.received).toHaveLength(2);
    for (let step = 0; step < 40; step++) {
      clock.advance(60 * MINUTE);
      await run();
    }
    expect(receiver.received).toHaveLength(8);
    const [dead] = await registry.deliveries({ endpointId: endpoint.id, limit: 10 });
    expect(dead).toMatchObject({ state: 'dead', attempts: 8 });
    expect(dead.log.map((a) => a.status)).toEqual(Array(8).fill(500));
    // Waits of 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, each up to 20 % longer, rounded to the hour steps.
    const gaps = dead.log.slice(1).map((a, i) => a.at.getTime() - dead.log[i].at.getTime());
    expect(gaps[2]).toBeGreaterThanOrEqual(30 * MINUTE);
    expect(gaps[6]).toBeGreaterThanOrEqual(600 * MINUTE);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
    expect(receiver.received.every((r) => r.verifiedWith.length === 1)).toBe(true);

    receiver.answer = () => 204;
    await registry.replayDelivery(endpoint.id, dead.id, admin);
    await run();
    expect(receiver.received).toHaveLength(9);
    expect(receiver.received[8].id).toBe(receiver.received[0].id);
  });

  it('signs with both secrets during a rotation overlap, then with the new one only', async () => {
    const { register, emit, run, clock, registry } = platform();
    const endpoint = await register();
    const rotated = await registry.rotateSecret(endpoint.id, admin, 600);
    receiver.secrets.push(rotated.secret);
    await emit('token.issued', 'during');
    await run();
    clock.advance(601_000);
    await emit('token.issued', 'after');
    await run();

    expect(receiver.received.map((r) => [r.message.data.target, r.verifiedWith.sort()])).toEqual([
      ['during', [endpoint.secret, rotated.secret].sort()],
      ['after', [rotated.secret]],
    ]);
  });

  it('gives a receiver that was down for five minutes every event afterwards, once each', async () => {
    const { register, emit, run, clock } = platform();
    await register();
    let down = true;
    const accepted: string[] = [];
    receiver.answer = ({ id }) => {
      if (down) return 503;
      accepted.push(id);
      return 204;
    };
    const emitted: string[] = [];
    for (let second = 0; second < 300; second += 10) {
      emitted.push(...(await emit('token.issued', `t${second}`)).map((r) => `msg_${r.sequenceId}`));
      await run();
      clock.advance(10_000);
    }
    down = false;
    for (let step = 0; step < 12; step++) {
      clock.advance(5 * MINUTE);
      await run();
    }

    // Every event, each accepted once; retries make the order not the log's (docs/webhooks.md).
    expect([...accepted].sort()).toEqual([...emitted].sort());
    expect(receiver.received.every((r) => r.verifiedWith.length === 1)).toBe(true);
  });

  it('keeps one slow receiver from holding up another', async () => {
    const { register, emit, run } = platform();
    await register('/slow');
    await register('/fast');
    receiver.answer = ({ path }) => (path === '/slow' ? 'hang' : 204);
    await emit('token.issued', 'x');
    const started = performance.now();
    await run();
    const fast = receiver.received.find((r) => r.path === '/fast');
    expect(fast).toBeDefined();
    // Both went out side by side: the pass took the slow one's timeout, not longer.
    expect(performance.now() - started).toBeLessThan(1_900);
  });
});
