import { Backoff } from './backoff';
import { BackgroundLoop, type BackgroundLoopOptions } from './background-loop';

/** A run the test ends by hand. */
function pendingRun() {
  let end!: (error?: Error) => void;
  const done = new Promise<void>((resolve, reject) => (end = (error) => (error ? reject(error) : resolve())));
  return { done, end };
}

describe(BackgroundLoop.name, () => {
  let warn: jest.Mock<void, [string]>;
  let loop: BackgroundLoop;

  const startLoop = (run: () => Promise<unknown>, options: Partial<BackgroundLoopOptions> = {}) => {
    loop = new BackgroundLoop({ what: 'chore', run, everyMs: 1_000, logger: { warn }, ...options });
    loop.start();
    return loop;
  };

  beforeEach(() => {
    jest.useFakeTimers();
    warn = jest.fn();
  });

  afterEach(async () => {
    await loop.stop();
    jest.useRealTimers();
  });

  it('runs every everyMs, the first after everyMs unless immediate', async () => {
    const run = jest.fn().mockResolvedValue(undefined);
    startLoop(run);
    expect(run).not.toHaveBeenCalled();

    await jest.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(3_000);
    expect(run).toHaveBeenCalledTimes(4);
  });

  it('runs at once when immediate, before start returns', () => {
    const run = jest.fn().mockResolvedValue(undefined);
    startLoop(run, { immediate: true });

    expect(run).toHaveBeenCalledTimes(1);
  });

  it('never overlaps a run: the next starts everyMs after the last ended', async () => {
    const slow = pendingRun();
    const run = jest.fn().mockReturnValueOnce(slow.done).mockResolvedValue(undefined);
    startLoop(run, { immediate: true });

    await jest.advanceTimersByTimeAsync(10_000);
    expect(run).toHaveBeenCalledTimes(1);

    slow.end();
    await jest.advanceTimersByTimeAsync(999);
    expect(run).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('logs a failed run and tries again everyMs later', async () => {
    const run = jest.fn().mockRejectedValueOnce(new Error('store away')).mockResolvedValue(undefined);
    startLoop(run, { immediate: true });
    await jest.advanceTimersByTimeAsync(0);

    expect(warn).toHaveBeenCalledWith('chore failed: store away');
    await jest.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('says of the error what describe picks', async () => {
    const leaky = Object.assign(new Error('password=hunter2'), { name: 'QueryFailedError' });
    startLoop(jest.fn().mockRejectedValue(leaky), { immediate: true, describe: (error) => error.name });
    await jest.advanceTimersByTimeAsync(0);

    expect(warn).toHaveBeenCalledWith('chore failed: QueryFailedError');
  });

  it('retries a failure after the backoff, and after everyMs again once a run succeeds', async () => {
    const run = jest
      .fn()
      .mockRejectedValueOnce(new Error('down'))
      .mockRejectedValueOnce(new Error('down'))
      .mockResolvedValueOnce(undefined)
      .mockRejectedValueOnce(new Error('down'))
      .mockResolvedValue(undefined);
    startLoop(run, { immediate: true, backoff: new Backoff(100, 1_000, () => 0) });
    await jest.advanceTimersByTimeAsync(0);
    expect(warn).toHaveBeenLastCalledWith('chore failed, retrying in 100 ms: down');

    await jest.advanceTimersByTimeAsync(100);
    expect(run).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenLastCalledWith('chore failed, retrying in 200 ms: down');
    await jest.advanceTimersByTimeAsync(200);
    expect(run).toHaveBeenCalledTimes(3);

    await jest.advanceTimersByTimeAsync(999);
    expect(run).toHaveBeenCalledTimes(3);
    await jest.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(4);
    expect(warn).toHaveBeenLastCalledWith('chore failed, retrying in 100 ms: down');
  });

  it('waits in stop for the run under way, and starts none after it', async () => {
    const slow = pendingRun();
    const run = jest.fn().mockReturnValueOnce(slow.done).mockResolvedValue(undefined);
    startLoop(run, { immediate: true });
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));

    await jest.advanceTimersByTimeAsync(5_000);
    expect(stopped).toBe(false);
    slow.end();
    await stopping;

    await jest.advanceTimersByTimeAsync(10_000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('stops between runs, and stays stopped when started again', async () => {
    const run = jest.fn().mockResolvedValue(undefined);
    startLoop(run);
    await jest.advanceTimersByTimeAsync(1_000);

    await loop.stop();
    loop.start();
    await jest.advanceTimersByTimeAsync(10_000);

    expect(run).toHaveBeenCalledTimes(1);
  });

  it('never keeps the process alive', () => {
    const setTimer = jest.spyOn(global, 'setTimeout');
    startLoop(jest.fn().mockResolvedValue(undefined));

    const timer = setTimer.mock.results[0].value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    setTimer.mockRestore();
  });
});
