import type { Contract } from '../support/contract';
import { anAuthorizationCode, at } from '../support/factories';

export const authorizationCodeStoreContract: Contract = (context) => {
  const store = () => context().stores.authorizationCodes;

  it('hands the code over as it was to its first consumer', async () => {
    const code = anAuthorizationCode({ scopes: ['jobs.read', 'jobs.write'] });
    await store().insertAuthorizationCode(code);

    await expect(store().consumeAuthorizationCode(code.codeHash, at(10))).resolves.toEqual(code);
  });

  it("keeps an OpenID Connect request's nonce and the session the code was approved in", async () => {
    const code = anAuthorizationCode({
      nonce: 'n-0S6_WzA2Mj',
      session: { sid: 'sid-1', authTime: at(-30_000) },
    });
    const plain = anAuthorizationCode();
    await store().insertAuthorizationCode(code);
    await store().insertAuthorizationCode(plain);

    await expect(store().consumeAuthorizationCode(code.codeHash, at(10))).resolves.toEqual(code);
    const consumed = await store().consumeAuthorizationCode(plain.codeHash, at(10));
    expect(consumed).not.toHaveProperty('nonce');
    expect(consumed).not.toHaveProperty('session');
  });

  it('shows a second consumer when the code was consumed', async () => {
    const code = anAuthorizationCode();
    await store().insertAuthorizationCode(code);
    await store().consumeAuthorizationCode(code.codeHash, at(10));

    await expect(store().consumeAuthorizationCode(code.codeHash, at(20))).resolves.toEqual({
      ...code,
      consumedAt: at(10),
    });
  });

  it('answers null for an unknown code', async () => {
    await expect(store().consumeAuthorizationCode('no-such-code', at(10))).resolves.toBeNull();
  });

  it('lets exactly one of two concurrent consumers win', async () => {
    const code = anAuthorizationCode();
    await store().insertAuthorizationCode(code);

    const results = await Promise.all([
      store().consumeAuthorizationCode(code.codeHash, at(10)),
      store().consumeAuthorizationCode(code.codeHash, at(11)),
    ]);

    expect(results.filter((r) => r?.consumedAt === null)).toHaveLength(1);
    expect(results.filter((r) => r?.consumedAt !== null)).toHaveLength(1);
  });

  it('lets exactly one of two concurrent transactions consume a code', async () => {
    const code = anAuthorizationCode();
    await store().insertAuthorizationCode(code);

    const consume = (now: Date) =>
      context().transactor.inTransaction((stores) =>
        stores.authorizationCodes.consumeAuthorizationCode(code.codeHash, now),
      );
    const results = await Promise.all([consume(at(10)), consume(at(11))]);

    expect(results.filter((r) => r?.consumedAt === null)).toHaveLength(1);
  });
};
