import { revocationDenies, type RevocableClaims } from './revocation-entry';

const claims: RevocableClaims = { jti: 'j-1', client_id: 'billing', sub: 'u-1', iat: 1_000, grant_id: 'g-1' };
const entry = (kind: string, value: string, created_at = 0) => ({ kind, value, created_at });

describe(revocationDenies.name, () => {
  it('denies the revoked jti only', () => {
    expect(revocationDenies(entry('jti', 'j-1'), claims)).toBe(true);
    expect(revocationDenies(entry('jti', 'j-2'), claims)).toBe(false);
  });

  it('denies the tokens of a client issued at or before its revocation, not those issued after', () => {
    expect(revocationDenies(entry('client', 'billing', 1_000), claims)).toBe(true);
    expect(revocationDenies(entry('client', 'billing', 999), claims)).toBe(false);
    expect(revocationDenies(entry('client', 'other', 5_000), claims)).toBe(false);
  });

  it('denies the tokens of a user issued at or before the deprovisioning, not those issued after', () => {
    expect(revocationDenies(entry('subject', 'u-1', 1_000), claims)).toBe(true);
    expect(revocationDenies(entry('subject', 'u-1', 999), claims)).toBe(false);
    expect(revocationDenies(entry('subject', 'u-2', 5_000), claims)).toBe(false);
    expect(revocationDenies(entry('subject', 'u-1', 5_000), { ...claims, sub: undefined })).toBe(false);
  });

  it('denies the tokens issued in the name of a deprovisioned actor, at any depth of the chain', () => {
    const chain = { ...claims, act: { sub: 'admin-1', act: { sub: 'gateway', act: null } } };

    expect(revocationDenies(entry('subject', 'admin-1', 1_000), chain)).toBe(true);
    expect(revocationDenies(entry('subject', 'gateway', 1_000), chain)).toBe(true);
    expect(revocationDenies(entry('subject', 'gateway', 999), chain)).toBe(false);
    expect(revocationDenies(entry('subject', 'admin-2', 5_000), chain)).toBe(false);
    expect(revocationDenies(entry('client', 'admin-1', 5_000), chain)).toBe(false);
  });

  it('denies the tokens of a revoked grant, never a token without a grant', () => {
    expect(revocationDenies(entry('grant', 'g-1'), claims)).toBe(true);
    expect(revocationDenies(entry('grant', 'g-2'), claims)).toBe(false);
    expect(revocationDenies(entry('grant', ''), { ...claims, grant_id: '' })).toBe(false);
    expect(revocationDenies(entry('grant', 'g-1'), { ...claims, grant_id: undefined })).toBe(false);
  });

  it('denies no token for a rotated client secret or signing key', () => {
    expect(revocationDenies(entry('secret', 'billing', 5_000), claims)).toBe(false);
    expect(revocationDenies(entry('signing_key', 'kid-2', 5_000), claims)).toBe(false);
  });

  it('fails closed on a kind it does not know', () => {
    expect(revocationDenies(entry('tenant', 'acme'), claims)).toBe(true);
  });
});
