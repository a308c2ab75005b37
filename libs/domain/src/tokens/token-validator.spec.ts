import { createTestEngine, TEST_START } from '../testing/in-memory-stores';
import { AccessTokenValidator } from './token-validator';

const HOUR_MS = 3600 * 1000;

async function setUp() {
  const engine = await createTestEngine();
  const issue = (clientId = 'reports-worker', grantId?: string) =>
    engine.accessTokens.issue({
      clientId,
      subject: grantId ? 'user-1' : clientId,
      scopes: ['jobs.read'],
      ...(grantId && { user: { tenant: 'acme', roles: ['user'], grantId } }),
    });
  const revoke = (kind: 'jti' | 'client' | 'grant', value: string) =>
    engine.stores.revocations.addRevocations(
      [{ kind, value, expiresAt: new Date(engine.clock.now().getTime() + HOUR_MS) }],
      engine.clock.now(),
    );
  return { ...engine, issue, revoke };
}

describe(AccessTokenValidator.name, () => {
  it('accepts a valid token nothing revoked', async () => {
    const { validator, issue } = await setUp();
    const { token, claims } = await issue();
    await expect(validator.validate(token)).resolves.toEqual(claims);
  });

  it('rejects a token that fails verification', async () => {
    const { validator, issue, clock } = await setUp();
    const { token } = await issue();
    clock.advanceSeconds(3600);
    await expect(validator.validate(token)).resolves.toBeNull();
  });

  it('rejects a token whose jti was revoked, and only that token', async () => {
    const { validator, issue, revoke } = await setUp();
    const revoked = await issue();
    const sibling = await issue();
    await revoke('jti', revoked.claims.jti);
    await expect(validator.validate(revoked.token)).resolves.toBeNull();
    await expect(validator.validate(sibling.token)).resolves.not.toBeNull();
  });

  it('rejects tokens of a deleted client issued at or before the deletion', async () => {
    const { validator, issue, revoke, clock } = await setUp();
    const earlier = await issue();
    clock.advance(999); // same second as the next token
    const sameSecond = await issue();
    await revoke('client', 'reports-worker');
    await expect(validator.validate(earlier.token)).resolves.toBeNull();
    await expect(validator.validate(sameSecond.token)).resolves.toBeNull();
  });

  it('accepts tokens of a client issued after its deletion entry (re-registered client_id)', async () => {
    const { validator, issue, revoke, clock } = await setUp();
    await revoke('client', 'reports-worker');
    clock.advanceSeconds(1);
    const later = await issue();
    expect(later.claims.iat * 1000).toBeGreaterThan(TEST_START.getTime());
    await expect(validator.validate(later.token)).resolves.not.toBeNull();
  });

  it('does not let a client deletion touch tokens of other clients', async () => {
    const { validator, issue, revoke } = await setUp();
    const other = await issue('billing-worker');
    await revoke('client', 'reports-worker');
    await expect(validator.validate(other.token)).resolves.not.toBeNull();
  });

  it('rejects every access token of a revoked grant', async () => {
    const { validator, issue, revoke } = await setUp();
    const first = await issue('web-portal', 'grant-1');
    const second = await issue('web-portal', 'grant-1');
    const otherGrant = await issue('web-portal', 'grant-2');
    await revoke('grant', 'grant-1');
    await expect(validator.validate(first.token)).resolves.toBeNull();
    await expect(validator.validate(second.token)).resolves.toBeNull();
    await expect(validator.validate(otherGrant.token)).resolves.not.toBeNull();
  });

  it('ignores a deny-list entry once it has expired', async () => {
    const { validator, issue, stores, clock } = await setUp();
    const { token, claims } = await issue();
    await stores.revocations.addRevocations(
      [{ kind: 'jti', value: claims.jti, expiresAt: new Date(TEST_START.getTime() + 1000) }],
      clock.now(),
    );
    await expect(validator.validate(token)).resolves.toBeNull();
    clock.advanceSeconds(1);
    await expect(validator.validate(token)).resolves.not.toBeNull();
  });
});
