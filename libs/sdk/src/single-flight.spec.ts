import { SingleFlight } from './single-flight';

describe(SingleFlight.name, () => {
  it('runs the operation once for callers that arrive while it runs, and again after it settles', async () => {
    const flight = new SingleFlight<number>();
    let runs = 0;
    const operation = async () => ++runs;
    const [a, b] = await Promise.all([flight.run(operation), flight.run(operation)]);
    expect([a, b, runs]).toEqual([1, 1, 1]);
    expect(flight.busy).toBe(false);
    expect(await flight.run(operation)).toBe(2);
  });

  it('forgets an operation that throws synchronously', async () => {
    const flight = new SingleFlight<number>();
    await expect(
      flight.run(() => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(flight.busy).toBe(false);
    expect(await flight.run(async () => 7)).toBe(7);
  });
});
