import {
  argon2idHasher,
  boundedArgon2,
  generateClientSecret,
  VerifiedSecretCache,
  type SecretHasher,
} from './secret-hasher';
import { argon2idHashOf, testArgon2idHasher } from '../testing/in-memory-stores';

/** The real argon2id hasher, counting how often it is asked to verify. */
function countingArgon2(): SecretHasher & { verifications: number } {
  const counter = {
    verifications: 0,
    hash: (secret: string) => argon2idHasher.hash(secret),
    verify: (hash: string, secret: string) => {
      counter.verifications += 1;
      return argon2idHasher.verify(hash, secret);
    },
  };
  return counter;
}

describe('argon2idHasher', () => {
  it('stores an argon2id hash that verifies the secret and nothing else', async () => {
    const hash = await argon2idHasher.hash('right secret');
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(hash).not.toContain('right secret');
    await expect(argon2idHasher.verify(hash, 'right secret')).resolves.toBe(true);
    await expect(argon2idHasher.verify(hash, 'wrong secret')).resolves.toBe(false);
  });

  it('answers false for a malformed stored hash instead of throwing', async () => {
    await expect(argon2idHasher.verify('not-a-hash', 'anything')).resolves.toBe(false);
  });
});

describe(generateClientSecret.name, () => {
  it('gives 256 random bits as 43 base64url characters', () => {
    expect(generateClientSecret()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateClientSecret()).not.toBe(generateClientSecret());
  });
});

describe(VerifiedSecretCache.name, () => {
  it('verifies the right secret', async () => {
    const cache = new VerifiedSecretCache(argon2idHasher);
    await expect(cache.verify(await argon2idHashOf('right secret'), 'right secret')).resolves.toBe(true);
  });

  it('refuses a wrong secret, also after the right one was cached', async () => {
    const cache = new VerifiedSecretCache(argon2idHasher);
    const hash = await argon2idHashOf('right secret');
    await expect(cache.verify(hash, 'wrong secret')).resolves.toBe(false);
    await expect(cache.verify(hash, 'right secret')).resolves.toBe(true);
    await expect(cache.verify(hash, 'wrong secret')).resolves.toBe(false);
  });

  it('skips argon2 the second time the same secret is verified against the same hash', async () => {
    const inner = countingArgon2();
    const cache = new VerifiedSecretCache(inner);
    const hash = await argon2idHashOf('right secret');
    await expect(cache.verify(hash, 'right secret')).resolves.toBe(true);
    await expect(cache.verify(hash, 'right secret')).resolves.toBe(true);
    expect(inner.verifications).toBe(1);
  });

  it('runs argon2 once for a burst of concurrent first requests with the same secret', async () => {
    const inner = countingArgon2();
    const cache = new VerifiedSecretCache(inner);
    const hash = await argon2idHashOf('right secret');
    const answers = await Promise.all(Array.from({ length: 20 }, () => cache.verify(hash, 'right secret')));
    expect(answers.every(Boolean)).toBe(true);
    expect(inner.verifications).toBe(1);
  });

  it('does not let a concurrent wrong secret share the run of a right one', async () => {
    const inner = countingArgon2();
    const cache = new VerifiedSecretCache(inner);
    const hash = await argon2idHashOf('right secret');
    const [right, wrong] = await Promise.all([
      cache.verify(hash, 'right secret'),
      cache.verify(hash, 'wrong secret'),
    ]);
    expect([right, wrong]).toEqual([true, false]);
    expect(inner.verifications).toBe(2);
  });

  it('never caches a failure: each wrong attempt is checked by argon2', async () => {
    const inner = countingArgon2();
    const cache = new VerifiedSecretCache(inner);
    const hash = await argon2idHashOf('right secret');
    await cache.verify(hash, 'wrong secret');
    await cache.verify(hash, 'wrong secret');
    expect(inner.verifications).toBe(2);
  });

  it('does not let a cached entry satisfy a different stored hash (secret rotated)', async () => {
    const inner = countingArgon2();
    const cache = new VerifiedSecretCache(inner);
    const oldHash = await argon2idHashOf('old secret');
    const newHash = await argon2idHashOf('new secret');
    await expect(cache.verify(oldHash, 'old secret')).resolves.toBe(true);
    await expect(cache.verify(newHash, 'old secret')).resolves.toBe(false);
    await expect(cache.verify(newHash, 'new secret')).resolves.toBe(true);
    expect(inner.verifications).toBe(3);
  });

  it('hashes through the inner hasher', async () => {
    const hash = await new VerifiedSecretCache(argon2idHasher).hash('fresh secret');
    await expect(argon2idHasher.verify(hash, 'fresh secret')).resolves.toBe(true);
  });
});

describe(boundedArgon2.name, () => {
  /** The real argon2id hasher, recording how many of its runs overlap at most. */
  function overlapping() {
    const seen = { running: 0, most: 0 };
    const run =
      <A extends unknown[], T>(work: (...args: A) => Promise<T>) =>
      async (...args: A) => {
        seen.most = Math.max(seen.most, (seen.running += 1));
        try {
          return await work(...args);
        } finally {
          seen.running -= 1;
        }
      };
    const inner: SecretHasher = { hash: run(testArgon2idHasher.hash), verify: run(argon2idHasher.verify) };
    return { seen, inner };
  }

  it('runs at most the given number of argon2 verifications at once, the next ones in turn', async () => {
    const { seen, inner } = overlapping();
    const bounded = boundedArgon2(inner, 2);
    const hash = await argon2idHashOf('right secret');
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => bounded.verify(hash, i === 3 ? 'right secret' : `guess ${i}`)),
    );
    expect(answers).toEqual([false, false, false, true]);
    expect(seen.most).toBe(2);
  });

  it('refuses a verification that would wait behind another as unavailable, without running argon2', async () => {
    const { seen, inner } = overlapping();
    const verify = jest.spyOn(inner, 'verify');
    const bounded = boundedArgon2(inner, 1, 1);
    const hash = await argon2idHashOf('right secret');
    // One runs, one waits: the third is refused at once.
    const attempts = [0, 1, 2].map((i) => bounded.verify(hash, `guess ${i}`).catch((e: unknown) => e));
    const answers = await Promise.all(attempts);
    expect(answers.slice(0, 2)).toEqual([false, false]);
    expect(answers[2]).toMatchObject({ code: 'unavailable' });
    expect(verify).toHaveBeenCalledTimes(2);
    expect(seen.most).toBe(1);
  });

  it('counts hashing among the runs it bounds', async () => {
    const { seen, inner } = overlapping();
    const bounded = boundedArgon2(inner, 1);
    const hash = await argon2idHashOf('right secret');
    await Promise.all([bounded.hash('new secret'), bounded.verify(hash, 'guess'), bounded.hash('other')]);
    expect(seen.most).toBe(1);
  });
});
