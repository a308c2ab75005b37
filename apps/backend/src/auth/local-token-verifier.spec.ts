import { SignJWT } from 'jose';
import { ISSUER, type Key, keyPair, NOW, sign } from '../testing/access-tokens';
import { LocalTokenVerifier } from './local-token-verifier';

describe(LocalTokenVerifier.name, () => {
  let rs256: Key;
  let ps256: Key;
  let es256: Key;
  let verifier: LocalTokenVerifier;

  beforeAll(async () => {
    [rs256, ps256, es256] = await Promise.all([keyPair('RS256'), keyPair('PS256', ''), keyPair('ES256')]);
  });

  beforeEach(() => {
    verifier = new LocalTokenVerifier(ISSUER, () => NOW);
    verifier.goLive([rs256.message, ps256.message, es256.message], []);
  });

  it.each(['RS256', 'PS256', 'ES256'] as const)(
    'accepts a valid %s token with the claims ValidateToken answers',
    async (alg) => {
      const key = { RS256: () => rs256, PS256: () => ps256, ES256: () => es256 }[alg]();
      const token = await sign(key, { jti: 'jti-1', tenant: 'acme', roles: ['admin'], grant_id: 'g-1' });

      expect(verifier.verify(token)).toEqual({
        iss: ISSUER,
        sub: 'reports',
        aud: ISSUER,
        exp: NOW + 600,
        iat: NOW - 10,
        jti: 'jti-1',
        client_id: 'reports',
        scope: 'jobs.read',
        tenant: 'acme',
        roles: ['admin'],
        grant_id: 'g-1',
        act: null,
        impersonation: '',
        cnf: null,
      });
    },
  );

  it('accepts an audience list naming the issuer', async () => {
    expect(verifier.verify(await sign(rs256, { aud: ['other', ISSUER] }))).toMatchObject({ aud: ISSUER });
  });

  it('accepts an impersonation token with its actor chain, as ValidateToken answers it', async () => {
    const act = { sub: 'admin-7', client_id: 'console', act: { sub: 'gateway' } };
    const token = await sign(rs256, { sub: 'user-1', act, impersonation: 'read_only' });

    expect(verifier.verify(token)).toMatchObject({
      sub: 'user-1',
      act: { sub: 'admin-7', client_id: 'console', act: { sub: 'gateway', client_id: '', act: null } },
      impersonation: 'read_only',
    });
  });

  it('leaves a token restricted to a resource (RFC 8707) to the sidecar, which refuses it for the issuer', async () => {
    expect(verifier.verify(await sign(rs256, { aud: 'https://api.reports.example' }))).toBeUndefined();
  });

  describe('leaves to the sidecar (answers undefined)', () => {
    const cases: Array<[string, () => Promise<string>]> = [
      ['a token signed by a key it was not given', async () => sign(await keyPair('RS256'))],
      ['a token naming a known kid with another algorithm', async () => sign(es256, {}, { kid: rs256.kid })],
      [
        'a tampered payload',
        async () => {
          const [header, , signature] = (await sign(rs256)).split('.');
          const payload = Buffer.from(JSON.stringify({ sub: 'root' })).toString('base64url');
          return `${header}.${payload}.${signature}`;
        },
      ],
      ['characters outside base64url', async () => `${await sign(rs256)}!`],
      ['an expired token', () => sign(rs256, { exp: NOW })],
      ['a token not yet valid', () => sign(rs256, { nbf: NOW + 60 })],
      ['another issuer', () => sign(rs256, { iss: 'https://elsewhere' })],
      ['another audience', () => sign(rs256, { aud: 'https://api.elsewhere' })],
      ['a missing jti', () => sign(rs256, { jti: undefined })],
      ['a missing iat', () => sign(rs256, { iat: undefined })],
      ['a claim of the wrong type', () => sign(rs256, { roles: 'admin' })],
      ['an impersonation mode it does not know', () => sign(rs256, { impersonation: 'admin' })],
      ['an actor without a subject', () => sign(rs256, { act: { client_id: 'console' } })],
      ['another typ', () => sign(rs256, {}, { typ: 'JWT' })],
      ['a crit header', () => sign(rs256, {}, { crit: ['b64'], b64: true })],
      [
        'alg none',
        async () => {
          const [, payload] = (await sign(rs256)).split('.');
          const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid: rs256.kid })).toString(
            'base64url',
          );
          return `${header}.${payload}.AAAA`;
        },
      ],
      [
        'an HMAC token',
        async () =>
          new SignJWT({
            iss: ISSUER,
            aud: ISSUER,
            sub: 's',
            client_id: 'c',
            jti: 'j',
            iat: NOW,
            exp: NOW + 60,
          })
            .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: rs256.kid })
            .sign(new TextEncoder().encode('k'.repeat(32))),
      ],
      ['garbage', async () => 'not.a.token'],
      ['an oversized token', async () => `${await sign(rs256)}${'a'.repeat(9000)}`],
    ];
    it.each(cases)('%s', async (_, token) => {
      expect(verifier.verify(await token())).toBeUndefined();
    });
  });

  it('leaves to the sidecar a token the deny-list denies: by jti, by client, by grant, by actor', async () => {
    const byJti = await sign(rs256, { jti: 'revoked-jti' });
    const byActor = await sign(rs256, { sub: 'user-1', act: { sub: 'deprovisioned-admin' } });
    const byClient = await sign(rs256, { client_id: 'deleted-app', iat: NOW - 100 });
    const laterClient = await sign(rs256, { client_id: 'deleted-app', iat: NOW - 10 });
    const byGrant = await sign(rs256, { grant_id: 'revoked-grant' });
    const expires_at = NOW + 3600;
    verifier.goLive([rs256.message], [{ kind: 'jti', value: 'revoked-jti', created_at: 0, expires_at }]);
    verifier.revoke({ kind: 'client', value: 'deleted-app', created_at: NOW - 50, expires_at });
    verifier.revoke({ kind: 'grant', value: 'revoked-grant', created_at: 0, expires_at });
    verifier.revoke({ kind: 'subject', value: 'deprovisioned-admin', created_at: NOW, expires_at });

    expect(verifier.verify(byJti)).toBeUndefined();
    expect(verifier.verify(byActor)).toBeUndefined();
    expect(verifier.verify(byClient)).toBeUndefined();
    expect(verifier.verify(byGrant)).toBeUndefined();
    // The app's later tokens (a new app under the same id) are not denied by the old deletion.
    expect(verifier.verify(laterClient)).toBeDefined();
  });

  it('judges nothing before the stream is live or after it dropped', async () => {
    const token = await sign(rs256);
    const fresh = new LocalTokenVerifier(ISSUER, () => NOW);
    expect(fresh.verify(token)).toBeUndefined();

    verifier.goDark();

    expect(verifier.verify(token)).toBeUndefined();
  });

  it('stops accepting the tokens of a key the new key set drops', async () => {
    const token = await sign(rs256);
    expect(verifier.verify(token)).toBeDefined();

    verifier.replaceKeys([es256.message]);

    expect(verifier.verify(token)).toBeUndefined();
    expect(verifier.verify(await sign(es256))).toBeDefined();
  });
});
