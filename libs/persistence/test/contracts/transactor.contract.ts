import type { Contract } from '../support/contract';
import { anApplication, aTokenEvent } from '../support/factories';

class Boom extends Error {}

export const transactorContract: Contract = (context) => {
  const stores = () => context().stores;
  const transactor = () => context().transactor;

  it('commits the work and returns its result', async () => {
    const app = anApplication();

    const result = await transactor().inTransaction(async (tx) => {
      await tx.applications.insertApplication(app);
      return 'done';
    });

    expect(result).toBe('done');
    await expect(stores().applications.findApplication(app.clientId)).resolves.toEqual(app);
  });

  it('rolls back every store when the work throws, and rethrows', async () => {
    const app = anApplication();
    const event = aTokenEvent({ clientId: app.clientId });
    const failure = new Boom('work failed');

    const run = transactor().inTransaction(async (tx) => {
      await tx.applications.insertApplication(app);
      await tx.tokenEvents.appendTokenEvents([event]);
      throw failure;
    });

    await expect(run).rejects.toBe(failure);
    await expect(stores().applications.findApplication(app.clientId)).resolves.toBeNull();
    await expect(
      stores().tokenEvents.listTokenEvents({ clientId: app.clientId, limit: 10 }),
    ).resolves.toEqual([]);
  });

  it('keeps a transaction usable after a duplicate insert', async () => {
    const existing = anApplication();
    const added = anApplication();
    await stores().applications.insertApplication(existing);

    const outcome = await transactor().inTransaction(async (tx) => {
      const duplicate = await tx.applications.insertApplication(existing);
      await tx.applications.insertApplication(added);
      return duplicate;
    });

    expect(outcome).toBe('duplicate');
    await expect(stores().applications.findApplication(added.clientId)).resolves.toEqual(added);
  });

  it('does not let a failing transaction undo a concurrent one', async () => {
    const committed = anApplication();
    const rolledBack = anApplication();

    const [failed, succeeded] = await Promise.allSettled([
      transactor().inTransaction(async (tx) => {
        await tx.applications.insertApplication(rolledBack);
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Boom('late failure');
      }),
      transactor().inTransaction((tx) => tx.applications.insertApplication(committed)),
    ]);

    expect(failed.status).toBe('rejected');
    expect(succeeded.status).toBe('fulfilled');
    await expect(stores().applications.findApplication(committed.clientId)).resolves.toEqual(committed);
    await expect(stores().applications.findApplication(rolledBack.clientId)).resolves.toBeNull();
  });

  it('does not let a failing transaction undo a concurrent write outside it', async () => {
    const outside = anApplication();
    let started!: () => void;
    const transactionStarted = new Promise<void>((resolve) => (started = resolve));

    const failing = transactor().inTransaction(async (tx) => {
      await tx.applications.insertApplication(anApplication());
      started();
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Boom('late failure');
    });
    const failed = expect(failing).rejects.toBeInstanceOf(Boom);
    await transactionStarted;
    await stores().applications.insertApplication(outside);

    await failed;
    await expect(stores().applications.findApplication(outside.clientId)).resolves.toEqual(outside);
  });
};
