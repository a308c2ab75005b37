import { ManualClock } from '../clock';
import { InMemoryStores } from '../testing/in-memory-stores';
import { RetentionSweep } from './retention-sweep';

const policy = { graceSeconds: 3_600, tokenEventDays: 30 };

describe(RetentionSweep.name, () => {
  it('joins a run under way instead of starting a second one beside it', async () => {
    const stores = new InMemoryStores();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const prune = jest.spyOn(stores.revocations, 'pruneRevocations').mockImplementation(async () => {
      await held;
      return 1;
    });
    const sweep = new RetentionSweep(stores, new ManualClock(), policy);

    const first = sweep.run();
    const second = sweep.run();
    release();

    await expect(first).resolves.toMatchObject({ revocations: 1 });
    await expect(second).resolves.toBe(await first);
    expect(prune).toHaveBeenCalledTimes(1);
  });

  it('runs again after a run that failed', async () => {
    const stores = new InMemoryStores();
    jest.spyOn(stores.sessions, 'pruneSessions').mockRejectedValueOnce(new Error('database gone'));
    const sweep = new RetentionSweep(stores, new ManualClock(), policy);

    await expect(sweep.run()).rejects.toThrow('database gone');
    await expect(sweep.run()).resolves.toMatchObject({ sessions: 0 });
  });
});
