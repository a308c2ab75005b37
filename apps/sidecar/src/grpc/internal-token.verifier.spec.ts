import { Metadata } from '@grpc/grpc-js';
import { SidecarError } from '../errors';
import { TEST_INTERNAL_TOKEN, testConfig } from '../testing/test-config';
import { InternalTokenVerifier } from './internal-token.verifier';

const withToken = (token?: string): Metadata => {
  const metadata = new Metadata();
  if (token !== undefined) metadata.set('x-internal-token', token);
  return metadata;
};

describe(InternalTokenVerifier.name, () => {
  const guard = new InternalTokenVerifier(testConfig());

  it('lets the configured internal token through', () => {
    expect(() => guard.assert(withToken(TEST_INTERNAL_TOKEN))).not.toThrow();
  });

  it.each([
    ['no metadata', undefined],
    ['an empty token', ''],
    ['a wrong token of the same length', TEST_INTERNAL_TOKEN.replace(/.$/, '!')],
    ['a prefix of the token', TEST_INTERNAL_TOKEN.slice(0, 10)],
    ['the token with something appended', `${TEST_INTERNAL_TOKEN}x`],
  ])('refuses %s as internal_token_invalid', (_case, token) => {
    expect(() => guard.assert(withToken(token))).toThrow(
      expect.objectContaining({ code: 'internal_token_invalid' }) as unknown as SidecarError,
    );
  });
});
