import type { Contract } from '../support/contract';
import { aTokenEvent, at } from '../support/factories';

export const tokenEventStoreContract: Contract = (context) => {
  const store = () => context().stores.tokenEvents;

  it('appends events and lists them in order with ascending ids', async () => {
    const events = [
      aTokenEvent({ type: 'app.registered', subject: null, jti: null }),
      aTokenEvent({ type: 'refresh_token.rotated', grantId: 'grant-1', occurredAt: at(1) }),
    ];

    await store().appendTokenEvents(events);
    const listed = await store().listTokenEvents({ limit: 10 });

    expect(listed).toEqual(events.map((event) => ({ ...event, id: expect.any(Number) })));
    expect(listed[1].id).toBeGreaterThan(listed[0].id);
  });

  it('lists events after an id, at most limit', async () => {
    await store().appendTokenEvents([aTokenEvent(), aTokenEvent(), aTokenEvent(), aTokenEvent()]);
    const all = await store().listTokenEvents({ limit: 10 });

    await expect(store().listTokenEvents({ after: all[0].id, limit: 2 })).resolves.toEqual(all.slice(1, 3));
  });

  it('lists only the events of one client when asked', async () => {
    const mine = [aTokenEvent({ clientId: 'app-mine' }), aTokenEvent({ clientId: 'app-mine' })];
    await store().appendTokenEvents([mine[0], aTokenEvent({ clientId: 'app-other' }), mine[1]]);

    const listed = await store().listTokenEvents({ clientId: 'app-mine', limit: 10 });

    expect(listed).toEqual(mine.map((event) => ({ ...event, id: expect.any(Number) })));
  });

  it('accepts an empty batch', async () => {
    await store().appendTokenEvents([]);

    await expect(store().listTokenEvents({ limit: 10 })).resolves.toEqual([]);
  });

  it('appends a batch too large for one statement', async () => {
    const events = Array.from({ length: 2_500 }, () => aTokenEvent({ clientId: 'app-busy' }));

    await store().appendTokenEvents(events);

    await expect(store().listTokenEvents({ clientId: 'app-busy', limit: 5_000 })).resolves.toHaveLength(
      2_500,
    );
  });
};
