import { timingSafeEqual } from 'node:crypto';
import { SecretDigests } from './secret-digests';

describe(SecretDigests.name, () => {
  it('gives the same parts the same digest within one instance', () => {
    const digests = new SecretDigests();
    expect(
      timingSafeEqual(digests.of('basic', 'app_1', 's3cret'), digests.of('basic', 'app_1', 's3cret')),
    ).toBe(true);
  });

  it('tells apart a different secret, a different part, and parts moved across the separator', () => {
    const digests = new SecretDigests();
    const digest = digests.of('basic', 'app_1', 's3cret');
    expect(digest.equals(digests.of('basic', 'app_1', 's3creT'))).toBe(false);
    expect(digest.equals(digests.of('post', 'app_1', 's3cret'))).toBe(false);
    expect(digests.of('ab', 'c').equals(digests.of('a', 'bc'))).toBe(false);
  });

  it('is keyed per instance: another process cannot reproduce, nor a dump test, a digest', () => {
    expect(new SecretDigests().of('app_1', 's3cret').equals(new SecretDigests().of('app_1', 's3cret'))).toBe(
      false,
    );
  });

  it('is a 32-byte digest, never the secret', () => {
    const digest = new SecretDigests().of('app_1', 's3cret');
    expect(digest).toHaveLength(32);
    expect(digest.toString('latin1')).not.toContain('s3cret');
  });
});
