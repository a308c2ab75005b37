import type { WebhookAttempt, WebhookAttemptOutcome, WebhookClaim, WebhookStore } from '@platform/domain';
import type { Contract } from '../support/contract';
import { at, aWebhookDelivery, aWebhookEndpoint, T0 } from '../support/factories';

const claimAt = (offsetMs: number, overrides: Partial<WebhookClaim> = {}): WebhookClaim => ({
  now: at(offsetMs),
  leaseUntil: at(offsetMs + 30_000),
  limit: 100,
  perEndpoint: 10,
  ...overrides,
});

const anAttempt = (deliveryId: number, attempt = 1) => ({
  deliveryId,
  attempt,
  at: at(1_000),
  durationMs: 42,
  status: 503,
  error: null,
  responseExcerpt: 'upstream down',
});

export const webhookStoreContract: Contract = (context) => {
  const store = () => context().stores.webhooks;
  /** A claim with nothing to record: what a worker asks when it starts. */
  const claim = (what: WebhookClaim, webhooks: WebhookStore = store()) =>
    webhooks.recordAndClaimWebhookDeliveries([], what).then((claimed) => claimed.deliveries);
  const record = (attempt: WebhookAttempt, outcome: WebhookAttemptOutcome) =>
    store().recordWebhookAttempts([{ attempt, outcome }]);

  it('keeps an endpoint as written, lists by creation and updates every field', async () => {
    const first = aWebhookEndpoint({ tenant: null, createdAt: at(10) });
    const second = aWebhookEndpoint({ createdAt: at(0), disabledAt: at(5) });
    await store().insertWebhookEndpoint(first);
    await store().insertWebhookEndpoint(second);

    await expect(store().findWebhookEndpoint(first.id)).resolves.toEqual(first);
    await expect(store().findWebhookEndpoint('wh_missing')).resolves.toBeNull();
    await expect(store().listWebhookEndpoints()).resolves.toEqual([second, first]);

    const changed = {
      ...first,
      url: 'https://other.example.com/',
      eventTypes: ['*'],
      previousStoredSecret: first.storedSecret,
      previousSecretExpiresAt: at(86_400_000),
      storedSecret: 'whsec_bmV3c2VjcmV0bmV3c2VjcmV0bmV3c2Vj',
      startAfterSequence: 17,
      updatedAt: at(99),
    };
    await expect(store().updateWebhookEndpoint(changed)).resolves.toBe(true);
    await expect(store().findWebhookEndpoint(first.id)).resolves.toEqual(changed);
    await expect(store().updateWebhookEndpoint(aWebhookEndpoint())).resolves.toBe(false);
  });

  it('replaces the stored secrets only while they are as expected (a rotation meanwhile wins)', async () => {
    const endpoint = aWebhookEndpoint({ storedSecret: 'whsec_clear', previousStoredSecret: null });
    await store().insertWebhookEndpoint(endpoint);
    const sealed = { storedSecret: '{"sealed":"one"}', previousStoredSecret: null };

    const rotated = { storedSecret: '{"sealed":"two"}', previousStoredSecret: 'whsec_clear' };
    await expect(store().replaceWebhookSecrets(endpoint.id, rotated, sealed)).resolves.toBe(false);
    await expect(store().replaceWebhookSecrets(endpoint.id, endpoint, sealed)).resolves.toBe(true);
    await expect(store().findWebhookEndpoint(endpoint.id)).resolves.toEqual({ ...endpoint, ...sealed });
    await expect(store().replaceWebhookSecrets(endpoint.id, endpoint, sealed)).resolves.toBe(false);

    const both = { storedSecret: '{"sealed":"three"}', previousStoredSecret: '{"sealed":"four"}' };
    await expect(store().replaceWebhookSecrets(endpoint.id, sealed, both)).resolves.toBe(true);
    await expect(store().replaceWebhookSecrets(endpoint.id, both, sealed)).resolves.toBe(true);
    await expect(store().findWebhookEndpoint(endpoint.id)).resolves.toMatchObject(sealed);
    await expect(store().replaceWebhookSecrets('wh_missing', sealed, both)).resolves.toBe(false);
  });

  it('deletes an endpoint with its deliveries and their attempts', async () => {
    const kept = aWebhookEndpoint();
    const gone = aWebhookEndpoint();
    await store().insertWebhookEndpoint(kept);
    await store().insertWebhookEndpoint(gone);
    const [keptDelivery, goneDelivery] = await store().insertWebhookDeliveries(
      [aWebhookDelivery(kept.id), aWebhookDelivery(gone.id)],
      T0,
    );
    await record(anAttempt(keptDelivery.id), { state: 'pending', nextAttemptAt: at(5_000) });
    await record(anAttempt(goneDelivery.id), { state: 'pending', nextAttemptAt: at(5_000) });

    await expect(store().deleteWebhookEndpoint(gone.id)).resolves.toBe(true);
    await expect(store().deleteWebhookEndpoint(gone.id)).resolves.toBe(false);
    await expect(store().findWebhookDelivery(goneDelivery.id)).resolves.toBeNull();
    await expect(store().listWebhookAttempts([keptDelivery.id, goneDelivery.id])).resolves.toEqual([
      anAttempt(keptDelivery.id),
    ]);
  });

  it('moves the dispatch cursor, starting at 0', async () => {
    await expect(
      context().transactor.inTransaction((s) => s.webhooks.lockWebhookDispatchCursor()),
    ).resolves.toBe(0);
    await context().transactor.inTransaction((s) => s.webhooks.setWebhookDispatchCursor(41));
    await expect(
      context().transactor.inTransaction((s) => s.webhooks.lockWebhookDispatchCursor()),
    ).resolves.toBe(41);
  });

  it('leaves the cursor where it was when the transaction that moved it fails', async () => {
    await expect(
      context().transactor.inTransaction(async (s) => {
        await s.webhooks.lockWebhookDispatchCursor();
        await s.webhooks.setWebhookDispatchCursor(9);
        throw new Error('crash before commit');
      }),
    ).rejects.toThrow('crash before commit');
    await expect(
      context().transactor.inTransaction((s) => s.webhooks.lockWebhookDispatchCursor()),
    ).resolves.toBe(0);
  });

  it('inserts deliveries pending with ascending ids, and pages them by endpoint, state and cursor', async () => {
    const endpoint = aWebhookEndpoint();
    await store().insertWebhookEndpoint(endpoint);
    const created = await store().insertWebhookDeliveries(
      [1, 2, 3].map((sequenceId) =>
        aWebhookDelivery(endpoint.id, { sequenceId, replayOf: sequenceId === 3 ? 1 : null }),
      ),
      at(7),
    );
    expect(created.map((d) => d.sequenceId)).toEqual([1, 2, 3]);
    expect(created[0]).toEqual({
      ...aWebhookDelivery(endpoint.id),
      id: created[0].id,
      state: 'pending',
      attempts: 0,
      leaseUntil: null,
      createdAt: at(7),
    });
    expect(created[1].id).toBeGreaterThan(created[0].id);
    await expect(store().findWebhookDelivery(created[2].id)).resolves.toEqual(created[2]);

    await record(
      { ...anAttempt(created[1].id), status: 204, responseExcerpt: null },
      { state: 'succeeded', nextAttemptAt: at(1_000) },
    );
    const ids = async (query: Partial<Parameters<ReturnType<typeof store>['listWebhookDeliveries']>[0]>) =>
      (await store().listWebhookDeliveries({ endpointId: endpoint.id, limit: 10, ...query })).map(
        (d) => d.sequenceId,
      );
    await expect(ids({})).resolves.toEqual([1, 2, 3]);
    await expect(ids({ state: 'pending' })).resolves.toEqual([1, 3]);
    await expect(ids({ state: 'succeeded' })).resolves.toEqual([2]);
    await expect(ids({ after: created[0].id, limit: 1 })).resolves.toEqual([2]);
    await expect(ids({ endpointId: 'wh_other' })).resolves.toEqual([]);
  });

  it('inserts a fan-out larger than one statement takes', async () => {
    const endpoint = aWebhookEndpoint();
    await store().insertWebhookEndpoint(endpoint);
    const inputs = Array.from({ length: 1_234 }, (_, i) =>
      aWebhookDelivery(endpoint.id, { sequenceId: i + 1 }),
    );
    const created = await store().insertWebhookDeliveries(inputs, T0);
    expect(created.map((d) => d.sequenceId)).toEqual(inputs.map((d) => d.sequenceId));
    expect(new Set(created.map((d) => d.id)).size).toBe(1_234);
  });

  it('claims due deliveries oldest first, leases them and skips the leased until the lease ends', async () => {
    const endpoint = aWebhookEndpoint();
    await store().insertWebhookEndpoint(endpoint);
    await store().insertWebhookDeliveries(
      [
        aWebhookDelivery(endpoint.id, { sequenceId: 1, nextAttemptAt: at(2_000) }),
        aWebhookDelivery(endpoint.id, { sequenceId: 2, nextAttemptAt: at(1_000) }),
        aWebhookDelivery(endpoint.id, { sequenceId: 3, nextAttemptAt: at(60_000) }),
      ],
      T0,
    );

    const first = await claim(claimAt(5_000));
    expect(first.map((d) => d.sequenceId)).toEqual([2, 1]);
    expect(first[0].leaseUntil).toEqual(at(35_000));
    await expect(claim(claimAt(6_000))).resolves.toEqual([]);
    // The worker died: once the lease has run out, the deliveries are due again.
    const again = await claim(claimAt(61_000));
    expect(again.map((d) => d.sequenceId)).toEqual([2, 1, 3]);
  });

  it('claims at most limit, and at most perEndpoint in flight for each endpoint', async () => {
    const busy = aWebhookEndpoint();
    const quiet = aWebhookEndpoint();
    await store().insertWebhookEndpoint(busy);
    await store().insertWebhookEndpoint(quiet);
    await store().insertWebhookDeliveries(
      [
        ...[1, 2, 3, 4, 5].map((sequenceId) => aWebhookDelivery(busy.id, { sequenceId })),
        aWebhookDelivery(quiet.id, { sequenceId: 6, nextAttemptAt: at(1) }),
      ],
      T0,
    );

    const first = await claim(claimAt(10, { perEndpoint: 2 }));
    expect(first.map((d) => d.sequenceId)).toEqual([1, 2, 6]);
    // Two of busy's are still in flight: its lane is full.
    await expect(claim(claimAt(20, { perEndpoint: 2 }))).resolves.toEqual([]);
    await record({ ...anAttempt(first[0].id), status: 200 }, { state: 'succeeded', nextAttemptAt: at(20) });
    const next = await claim(claimAt(30, { perEndpoint: 2 }));
    expect(next.map((d) => d.sequenceId)).toEqual([3]);
    const limited = await claim(claimAt(40_000, { perEndpoint: 10, limit: 2 }));
    expect(limited.map((d) => d.sequenceId)).toEqual([2, 3]);
  });

  it('never claims for a disabled endpoint, nor what is no longer pending', async () => {
    const disabled = aWebhookEndpoint({ disabledAt: T0 });
    const enabled = aWebhookEndpoint();
    await store().insertWebhookEndpoint(disabled);
    await store().insertWebhookEndpoint(enabled);
    const [, dead] = await store().insertWebhookDeliveries(
      [aWebhookDelivery(disabled.id), aWebhookDelivery(enabled.id)],
      T0,
    );
    await record(anAttempt(dead.id, 8), { state: 'dead', nextAttemptAt: at(1) });

    await expect(claim(claimAt(10))).resolves.toEqual([]);
  });

  it('gives each delivery to one of several workers claiming at once', async () => {
    const endpoints = [aWebhookEndpoint(), aWebhookEndpoint(), aWebhookEndpoint()];
    for (const endpoint of endpoints) await store().insertWebhookEndpoint(endpoint);
    await store().insertWebhookDeliveries(
      endpoints.flatMap((e) =>
        Array.from({ length: 20 }, (_, i) => aWebhookDelivery(e.id, { sequenceId: i + 1 })),
      ),
      T0,
    );

    const claims = await Promise.all(
      Array.from({ length: 6 }, () =>
        context().transactor.inTransaction((s) => claim(claimAt(10, { limit: 15 }), s.webhooks)),
      ),
    );
    const ids = claims.flat().map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.length).toBeLessThanOrEqual(30); // 3 endpoints x perEndpoint 10
  });

  it('logs an attempt and moves its delivery on, releasing the lease', async () => {
    const endpoint = aWebhookEndpoint();
    await store().insertWebhookEndpoint(endpoint);
    await store().insertWebhookDeliveries([aWebhookDelivery(endpoint.id)], T0);
    const [claimed] = await claim(claimAt(10));

    const attempt = {
      ...anAttempt(claimed.id),
      status: null,
      error: 'connect ECONNREFUSED',
      responseExcerpt: null,
    };
    await record(attempt, { state: 'pending', nextAttemptAt: at(5_010) });

    await expect(store().findWebhookDelivery(claimed.id)).resolves.toEqual({
      ...claimed,
      attempts: 1,
      nextAttemptAt: at(5_010),
      leaseUntil: null,
    });
    await expect(store().listWebhookAttempts([claimed.id])).resolves.toEqual([attempt]);
    await expect(claim(claimAt(5_000))).resolves.toEqual([]);
    await expect(claim(claimAt(5_010))).resolves.toHaveLength(1);
  });

  it('records finished attempts and claims into their lanes in one call, with the endpoints claimed for', async () => {
    const busy = aWebhookEndpoint();
    const idle = aWebhookEndpoint();
    await store().insertWebhookEndpoint(busy);
    await store().insertWebhookEndpoint(idle);
    await store().insertWebhookDeliveries(
      [1, 2, 3, 4].map((sequenceId) => aWebhookDelivery(busy.id, { sequenceId })),
      T0,
    );
    const first = await claim(claimAt(10, { perEndpoint: 2 }));
    expect(first.map((d) => d.sequenceId)).toEqual([1, 2]);

    const succeeded = { ...anAttempt(first[0].id), status: 204 };
    const failed = anAttempt(first[1].id);
    const next = await store().recordAndClaimWebhookDeliveries(
      [
        { attempt: succeeded, outcome: { state: 'succeeded', nextAttemptAt: at(20) } },
        { attempt: failed, outcome: { state: 'pending', nextAttemptAt: at(5_020) } },
      ],
      claimAt(30, { perEndpoint: 2 }),
    );
    // Both lanes were freed by the attempts recorded in the same call; the retry is not due yet.
    expect(next.deliveries.map((d) => d.sequenceId)).toEqual([3, 4]);
    expect(next.deliveries.every((d) => d.leaseUntil?.getTime() === at(30_030).getTime())).toBe(true);
    expect(next.endpoints).toEqual([busy]);
    await expect(store().findWebhookDelivery(first[0].id)).resolves.toMatchObject({
      state: 'succeeded',
      attempts: 1,
      nextAttemptAt: at(20),
      leaseUntil: null,
    });
    await expect(store().findWebhookDelivery(first[1].id)).resolves.toMatchObject({
      state: 'pending',
      attempts: 1,
      nextAttemptAt: at(5_020),
      leaseUntil: null,
    });
    await expect(store().listWebhookAttempts([first[0].id, first[1].id])).resolves.toEqual([
      succeeded,
      failed,
    ]);
  });

  it('records without claiming when the claim has no room, and claims without attempts to record', async () => {
    const endpoint = aWebhookEndpoint();
    await store().insertWebhookEndpoint(endpoint);
    const [a] = await store().insertWebhookDeliveries(
      [aWebhookDelivery(endpoint.id), aWebhookDelivery(endpoint.id, { sequenceId: 2 })],
      T0,
    );
    await claim(claimAt(10, { limit: 1 }));

    const none = await store().recordAndClaimWebhookDeliveries(
      [
        {
          attempt: { ...anAttempt(a.id), status: 200 },
          outcome: { state: 'succeeded', nextAttemptAt: at(20) },
        },
      ],
      claimAt(20, { limit: 0 }),
    );
    expect(none).toEqual({ deliveries: [], endpoints: [] });
    await expect(store().findWebhookDelivery(a.id)).resolves.toMatchObject({ state: 'succeeded' });
    const claimed = await store().recordAndClaimWebhookDeliveries([], claimAt(30));
    expect(claimed.deliveries.map((d) => d.sequenceId)).toEqual([2]);
    expect(claimed.endpoints).toEqual([endpoint]);
  });

  it('records a batch of attempts at once, and drops those of deliveries deleted meanwhile', async () => {
    const kept = aWebhookEndpoint();
    const gone = aWebhookEndpoint();
    await store().insertWebhookEndpoint(kept);
    await store().insertWebhookEndpoint(gone);
    const [a, b, c] = await store().insertWebhookDeliveries(
      [aWebhookDelivery(kept.id), aWebhookDelivery(kept.id, { sequenceId: 2 }), aWebhookDelivery(gone.id)],
      T0,
    );
    await claim(claimAt(10));
    await store().deleteWebhookEndpoint(gone.id);

    await store().recordWebhookAttempts([
      {
        attempt: { ...anAttempt(a.id), status: 200 },
        outcome: { state: 'succeeded', nextAttemptAt: at(1_000) },
      },
      { attempt: anAttempt(b.id), outcome: { state: 'pending', nextAttemptAt: at(6_000) } },
      { attempt: anAttempt(c.id), outcome: { state: 'pending', nextAttemptAt: at(6_000) } },
    ]);
    await expect(store().findWebhookDelivery(a.id)).resolves.toMatchObject({
      state: 'succeeded',
      attempts: 1,
      leaseUntil: null,
    });
    await expect(store().findWebhookDelivery(b.id)).resolves.toMatchObject({
      state: 'pending',
      attempts: 1,
      leaseUntil: null,
    });
    await expect(store().listWebhookAttempts([a.id, b.id, c.id])).resolves.toHaveLength(2);
    await expect(store().recordWebhookAttempts([])).resolves.toBeUndefined();
  });
};
