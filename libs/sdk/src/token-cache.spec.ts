import type { Clock } from './clock';
import { refreshDeadline, TokenCache } from './token-cache';
import type { TokenResponse } from './wire';

const HOUR = 3600;

/** A clock the test moves by hand. */
class ManualClock implements Clock {
  private current = Date.parse('2026-05-21T10:00:00.000Z');

  now(): Date {
    return new Date(this.current);
  }

  set(time: Date): void {
    this.current = time.getTime();
  }
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tokenResponse = (access_token: string): TokenResponse => ({
  access_token,
  token_type: 'Bearer',
  expires_in: HOUR,
  scope: 'jobs.read',
});

/** An `obtain` that answers with the next numbered token and counts its calls. */
function counter() {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    obtain: async () => tokenResponse(`token-${++calls}`),
  };
}

describe(refreshDeadline.name, () => {
  it('is 80% of expires_in after the request was sent', () => {
    expect(refreshDeadline(1_000, 3600)).toBe(1_000 + 2_880_000);
    expect(refreshDeadline(0, 10)).toBe(8_000);
  });

  it('keeps a token without a usable expires_in until it is refused', () => {
    expect(refreshDeadline(0, undefined)).toBe(Infinity);
    expect(refreshDeadline(0, 0)).toBe(Infinity);
    expect(refreshDeadline(0, Number.NaN)).toBe(Infinity);
  });
});

describe(TokenCache.name, () => {
  it('shares one fetch among 50 concurrent callers on a cold cache', async () => {
    const pending = deferred<TokenResponse>();
    let calls = 0;
    const cache = new TokenCache(() => {
      calls++;
      return pending.promise;
    });
    const callers = Array.from({ length: 50 }, () => cache.get());
    pending.resolve(tokenResponse('only'));
    const tokens = await Promise.all(callers);
    expect(calls).toBe(1);
    expect(new Set(tokens.map((t) => t.token.access_token))).toEqual(new Set(['only']));
  });

  it('reuses the token up to 80% of expires_in and fetches a new one from there', async () => {
    const clock = new ManualClock();
    const start = clock.now().getTime();
    const source = counter();
    const cache = new TokenCache(source.obtain, clock);

    expect((await cache.get()).token.access_token).toBe('token-1');
    clock.set(new Date(start + 0.79 * HOUR * 1000));
    expect((await cache.get()).token.access_token).toBe('token-1');
    clock.set(new Date(start + 0.8 * HOUR * 1000 - 1));
    expect((await cache.get()).token.access_token).toBe('token-1');
    clock.set(new Date(start + 0.8 * HOUR * 1000));
    expect((await cache.get()).token.access_token).toBe('token-2');
    expect(source.calls).toBe(2);
  });

  it('counts the lifetime from when the request was sent, not from when the answer came', async () => {
    const clock = new ManualClock();
    const start = clock.now().getTime();
    const sent = deferred<void>();
    const pending = deferred<TokenResponse>();
    const cache = new TokenCache(() => {
      sent.resolve();
      return pending.promise;
    }, clock);
    const got = cache.get();
    await sent.promise;
    clock.set(new Date(start + 5_000));
    pending.resolve(tokenResponse('slow'));
    expect((await got).refreshAt).toBe(start + 0.8 * HOUR * 1000);
  });

  it('does not cache a failed fetch: every waiting caller sees the error and the next call fetches again', async () => {
    let calls = 0;
    const first = deferred<TokenResponse>();
    const cache = new TokenCache(() =>
      ++calls === 1 ? first.promise : Promise.resolve(tokenResponse('ok')),
    );
    const waiting = [cache.get(), cache.get()];
    first.reject(new Error('token endpoint down'));
    for (const result of await Promise.allSettled(waiting)) expect(result.status).toBe('rejected');
    expect((await cache.get()).token.access_token).toBe('ok');
    expect(calls).toBe(2);
  });

  it('shares one fetch among 50 callers that saw the same token refused', async () => {
    const source = counter();
    const cache = new TokenCache(source.obtain);
    const refused = (await cache.get()).token.access_token;
    const renewed = await Promise.all(Array.from({ length: 50 }, () => cache.renew(refused)));
    expect(source.calls).toBe(2);
    expect(new Set(renewed.map((t) => t.token.access_token))).toEqual(new Set(['token-2']));
  });

  it('does not fetch again for a refused token that is already replaced', async () => {
    const source = counter();
    const cache = new TokenCache(source.obtain);
    const refused = (await cache.get()).token.access_token;
    await cache.renew(refused);
    expect((await cache.renew(refused)).token.access_token).toBe('token-2');
    expect(source.calls).toBe(2);
  });

  it('fetches after invalidate', async () => {
    const source = counter();
    const cache = new TokenCache(source.obtain);
    await cache.get();
    cache.invalidate();
    expect((await cache.get()).token.access_token).toBe('token-2');
  });
});
