import { randomInt } from 'node:crypto';
import { Metadata } from '@grpc/grpc-js';
import { redisSuiteEnabled, TEST_REDIS_URL } from '../../../test/support/redis';
import { InternalTokenVerifier } from '../src/grpc/internal-token.verifier';
import { SidecarCounters } from '../src/ratelimit/sidecar-counters';
import { TEST_INTERNAL_TOKEN, testConfig } from '../src/testing/test-config';

const FAILURES_ALLOWED = 3;

const withToken = (token: string): Metadata => {
  const metadata = new Metadata();
  metadata.set('x-internal-token', token);
  return metadata;
};

/**
 * With Redis every sidecar shares the internal token's failure count: one sidecar's guesser trips
 * it for all of them, and still the right token passes at every one.
 */
(redisSuiteEnabled('the sidecar internal token suite') ? describe : describe.skip)(
  'internal token failures counted in Redis',
  () => {
    const counters: SidecarCounters[] = [];
    const sidecar = async () => {
      const config = testConfig({
        rateLimitRedisUrl: TEST_REDIS_URL,
        failedAuthPerPeer: FAILURES_ALLOWED,
        failedAuthWindowSeconds: 60,
      });
      const store = new SidecarCounters(config);
      counters.push(store);
      await store.onModuleInit();
      return new InternalTokenVerifier(config, store);
    };
    afterAll(async () => {
      await Promise.all(counters.map((store) => store.onApplicationShutdown()));
    });

    it('trips for every sidecar on loopback, and never refuses the right token', async () => {
      const [guessedAt, other] = [await sidecar(), await sidecar()];
      // A loopback address of its own per run: the count lives on in Redis for the window.
      const loopback = `127.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
      for (let attempt = 0; attempt < FAILURES_ALLOWED; attempt++) {
        await expect(guessedAt.assert(withToken('a-guess'), loopback)).rejects.toMatchObject({
          code: 'internal_token_invalid',
        });
      }
      await expect(other.assert(withToken('a-guess'), loopback)).rejects.toMatchObject({
        code: 'rate_limited',
      });
      await expect(guessedAt.assert(withToken(TEST_INTERNAL_TOKEN), loopback)).resolves.toBeUndefined();
      await expect(other.assert(withToken(TEST_INTERNAL_TOKEN), loopback)).resolves.toBeUndefined();
    });
  },
);
