import { KnownCredentials } from './known-credentials';

describe('KnownCredentials', () => {
  const SECRET = 'c2VjcmV0LXZhbHVlLW9mLTMyLWJ5dGVz';
  const FORM = `grant_type=client_credentials&client_id=app&client_secret=${SECRET}`;

  it('keys the credentials presented by an HMAC under a key of its own, never the secret', () => {
    const known = new KnownCredentials();
    const key = known.of(FORM, undefined)!;
    expect(key).not.toContain(SECRET);
    expect(key).not.toContain(Buffer.from(SECRET).toString('base64'));
    expect(key).not.toBe(new KnownCredentials().of(FORM, undefined));
    // The same credentials, however the form spells them, and only they.
    expect(known.of(`client_secret=${SECRET}&scope=a&client_id=app`, undefined)).toBe(key);
    expect(known.of(`client_id=app&client%5Fsecret=${SECRET}`, undefined)).toBe(key);
    expect(known.of(`client_id=other&client_secret=${SECRET}`, undefined)).not.toBe(key);
    expect(known.of(`${FORM}x`, undefined)).not.toBe(key);
    expect(known.of('grant_type=client_credentials', 'Basic YTpi')).not.toBe(
      known.of('grant_type=client_credentials', 'Basic YTpj'),
    );
  });

  it('has no key for a request that presents no secret', () => {
    expect(
      new KnownCredentials().of('grant_type=authorization_code&client_id=app&code=c', undefined),
    ).toBeUndefined();
  });

  it('remembers credentials that won a token and forgets them once refused', () => {
    const known = new KnownCredentials();
    const key = known.of(FORM, undefined)!;
    expect(known.has(key)).toBe(false);
    known.settle(key, 400);
    expect(known.has(key)).toBe(false);
    known.settle(key, 200);
    expect(known.has(key)).toBe(true);
    known.settle(key, 400); // a bad grant: the client still authenticated
    expect(known.has(key)).toBe(true);
    known.settle(key, 401);
    expect(known.has(key)).toBe(false);
  });

  it('is bounded: the least recently used goes first', () => {
    const known = new KnownCredentials(2);
    known.settle('a', 200);
    known.settle('b', 200);
    expect(known.has('a')).toBe(true);
    known.settle('c', 200);
    expect([known.has('a'), known.has('b'), known.has('c')]).toEqual([true, false, true]);
  });
});
