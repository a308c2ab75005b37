import { Metadata, status } from '@grpc/grpc-js';
import { SidecarError } from '../errors';
import { SidecarCounters } from '../ratelimit/sidecar-counters';
import { TEST_INTERNAL_TOKEN, testConfig } from '../testing/test-config';
import { toGrpcStatus } from './status-mapper';
import { InternalTokenVerifier } from './internal-token.verifier';

const withToken = (token?: string): Metadata => {
  const metadata = new Metadata();
  if (token !== undefined) metadata.set('x-internal-token', token);
  return metadata;
};

const verifierOf = (failedAuthPerPeer = 100) => {
  const config = testConfig({ failedAuthPerPeer, failedAuthWindowSeconds: 60 });
  return new InternalTokenVerifier(config, new SidecarCounters(config));
};

describe(InternalTokenVerifier.name, () => {
  const guard = verifierOf();

  it('lets the configured internal token through', async () => {
    await expect(guard.assert(withToken(TEST_INTERNAL_TOKEN), '::1')).resolves.toBeUndefined();
  });

  it.each([
    ['no metadata', undefined],
    ['an empty token', ''],
    ['a wrong token of the same length', TEST_INTERNAL_TOKEN.replace(/.$/, '!')],
    ['a prefix of the token', TEST_INTERNAL_TOKEN.slice(0, 10)],
    ['the token with something appended', `${TEST_INTERNAL_TOKEN}x`],
  ])('refuses %s as internal_token_invalid', async (_case, token) => {
    await expect(guard.assert(withToken(token), '::1')).rejects.toEqual(
      expect.objectContaining({ code: 'internal_token_invalid' }) as unknown as SidecarError,
    );
  });

  it('refuses an address that keeps failing with a retry delay, and never refuses the right token', async () => {
    const verifier = verifierOf(2);
    // Every process on the host is `::1` to the sidecar: one of them guesses.
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(verifier.assert(withToken('wrong'), '::1')).rejects.toMatchObject({
        code: 'internal_token_invalid',
      });
    }
    const refusal = await verifier.assert(withToken('wrong'), '::1').catch((e: unknown) => e);
    expect(refusal).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 60 });
    expect(toGrpcStatus(refusal).code).toBe(status.RESOURCE_EXHAUSTED);
    // The backend beside it, on the same address, is not locked out.
    await expect(verifier.assert(withToken(TEST_INTERNAL_TOKEN), '::1')).resolves.toBeUndefined();
    await expect(verifier.assert(withToken(undefined), '::1')).rejects.toMatchObject({
      code: 'rate_limited',
    });
    // Another address counts its own failures.
    await expect(verifier.assert(withToken('wrong'), '10.0.0.8')).rejects.toMatchObject({
      code: 'internal_token_invalid',
    });
  });

  it('counts nothing when the limit is off (RATE_LIMIT_FAILED_AUTH_PER_ADDRESS=0)', async () => {
    const verifier = verifierOf(0);
    for (let attempt = 0; attempt < 5; attempt++) {
      await expect(verifier.assert(withToken('wrong'), '10.0.0.9')).rejects.toMatchObject({
        code: 'internal_token_invalid',
      });
    }
    await expect(verifier.assert(withToken(TEST_INTERNAL_TOKEN), '10.0.0.9')).resolves.toBeUndefined();
  });
});
