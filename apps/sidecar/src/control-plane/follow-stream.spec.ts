import type { Logger } from '@nestjs/common';
import { followStream, STREAM_RECONNECT_CAP_MS } from './follow-stream';

describe('followStream', () => {
  const logger = () => ({ log: jest.fn(), warn: jest.fn() });

  it('keeps trying a control plane that is away at most a second apart, logs the outage once and the return', async () => {
    const stopped = new AbortController();
    const attempts: number[] = [];
    const applied: number[] = [];
    const log = logger();
    await followStream<number>({
      what: 'revocation stream',
      logger: log as unknown as Logger,
      signal: stopped.signal,
      open: async function* (_connection, onOpen) {
        attempts.push(Date.now());
        if (attempts.length <= 5) throw new Error('connect ECONNREFUSED ::1:8080');
        onOpen();
        yield 1;
        stopped.abort();
      },
      apply: (item) => applied.push(item),
    });

    const gaps = attempts.slice(1).map((at, i) => at - attempts[i]);
    expect(gaps).toHaveLength(5);
    for (const gap of gaps) expect(gap).toBeLessThanOrEqual(STREAM_RECONNECT_CAP_MS + 100);
    // 250, 500, then the cap (less its jitter of up to 20 %).
    expect(gaps[4]).toBeGreaterThanOrEqual(STREAM_RECONNECT_CAP_MS * 0.8 - 20);
    expect(applied).toEqual([1]);
    expect(log.warn.mock.calls).toEqual([
      ['revocation stream failed (1 attempt(s)): connect ECONNREFUSED ::1:8080'],
    ]);
    expect(log.log.mock.calls).toEqual([['revocation stream reconnected after 5 failed attempt(s)']]);
  }, 10_000);

  it('reconnects at once when its connection is aborted, from wherever the follower got to', async () => {
    const stopped = new AbortController();
    let connections = 0;
    const applied: number[] = [];
    const log = logger();
    const started = Date.now();
    await followStream<number>({
      what: 'definitions stream',
      logger: log as unknown as Logger,
      signal: stopped.signal,
      open: async function* (connection, onOpen) {
        onOpen();
        yield ++connections;
        if (connections === 2) return stopped.abort();
        await new Promise((resolve) => connection.addEventListener('abort', resolve));
      },
      apply: (item) => applied.push(item),
      onConnection: (connection) => connections === 0 && setTimeout(() => connection.abort(), 10),
    });
    expect(applied).toEqual([1, 2]);
    expect(Date.now() - started).toBeLessThan(200); // no backoff (its least is 200 ms)
    expect(log.warn).not.toHaveBeenCalled();
  });
});
