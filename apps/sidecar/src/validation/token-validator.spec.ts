import { Logger } from '@nestjs/common';
import { base64url, exportSPKI, SignJWT } from 'jose';
import { systemClock } from '@platform/domain';
import { SidecarError, type SidecarErrorCode } from '../errors';
import { Readiness } from '../health/readiness';
import { KeyCache } from '../keys/key-cache';
import { DenyList } from '@platform/domain';
import { FakeControlPlane } from '../testing/fake-control-plane';
import { TEST_ISSUER, testConfig } from '../testing/test-config';
import { ManualClock } from '@platform/domain';
import { createTestKey, signAccessToken, type TestKey } from '../testing/test-keys';
import { TokenValidator } from './token-validator';

const now = () => Math.floor(Date.now() / 1000);
const RESOURCE = 'https://api.reports.example';

describe(TokenValidator.name, () => {
  let rs256: TestKey;
  let es256: TestKey;
  let ps256: TestKey;
  let unpublished: TestKey;
  let controlPlane: FakeControlPlane;
  let denyList: DenyList;
  let validator: TokenValidator;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    [rs256, es256, ps256, unpublished] = await Promise.all([
      createTestKey('RS256'),
      createTestKey('ES256'),
      createTestKey('PS256'),
      createTestKey('RS256'),
    ]);
  });

  beforeEach(async () => {
    controlPlane = new FakeControlPlane();
    controlPlane.publish(rs256.publicJwk, es256.publicJwk, ps256.publicJwk);
    const config = testConfig();
    const keys = new KeyCache(controlPlane, config, systemClock, new Readiness());
    await keys.refresh();
    denyList = new DenyList();
    validator = new TokenValidator(keys, denyList, config, systemClock);
  });

  async function refusal(
    token: string,
    audience?: string,
  ): Promise<{ code: SidecarErrorCode; message: string }> {
    const error = await validator.validate(token, audience).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    if (!(error instanceof SidecarError)) throw new Error(`expected a SidecarError, got ${String(error)}`);
    return { code: error.code, message: error.message };
  }

  describe('accepts', () => {
    it('a valid RS256 access token and answers its claims', async () => {
      const token = await signAccessToken(rs256, { claims: { jti: 'jti-ok' } });

      const claims = await validator.validate(token);

      expect(claims).toEqual({
        iss: TEST_ISSUER,
        sub: 'reports-service',
        aud: TEST_ISSUER,
        exp: expect.any(Number),
        iat: expect.any(Number),
        jti: 'jti-ok',
        client_id: 'reports-service',
        scope: 'jobs.read jobs.write',
        tenant: '',
        roles: [],
        grant_id: '',
        act: null,
        impersonation: '',
        cnf: null,
      });
    });

    it('an ES256 token', async () => {
      await expect(validator.validate(await signAccessToken(es256))).resolves.toMatchObject({
        sub: 'reports-service',
      });
    });

    it('a PS256 token', async () => {
      await expect(validator.validate(await signAccessToken(ps256))).resolves.toMatchObject({
        sub: 'reports-service',
      });
    });

    it('a user token with tenant, roles and grant_id', async () => {
      const token = await signAccessToken(rs256, {
        claims: { sub: 'user-42', tenant: 'acme', roles: ['viewer', 'user'], grant_id: 'grant-1' },
      });

      await expect(validator.validate(token)).resolves.toMatchObject({
        sub: 'user-42',
        tenant: 'acme',
        roles: ['viewer', 'user'],
        grant_id: 'grant-1',
      });
    });

    it('an impersonation token with its actor chain', async () => {
      const act = { sub: 'admin-7', client_id: 'console', act: { sub: 'gateway' } };
      const token = await signAccessToken(rs256, {
        claims: { sub: 'user-42', tenant: 'acme', grant_id: 'grant-1', act, impersonation: 'read_only' },
      });

      await expect(validator.validate(token)).resolves.toMatchObject({
        sub: 'user-42',
        act: { sub: 'admin-7', client_id: 'console', act: { sub: 'gateway', client_id: '', act: null } },
        impersonation: 'read_only',
      });
    });

    it('a token for the audience the caller names, answering that audience', async () => {
      const token = await signAccessToken(rs256, { claims: { aud: RESOURCE } });

      await expect(validator.validate(token, RESOURCE)).resolves.toMatchObject({ aud: RESOURCE });
    });

    it('a token whose audience list names the issuer, or the named audience, answering that one', async () => {
      const token = await signAccessToken(rs256, { claims: { aud: [RESOURCE, TEST_ISSUER] } });

      await expect(validator.validate(token)).resolves.toMatchObject({ aud: TEST_ISSUER });
      await expect(validator.validate(token, RESOURCE)).resolves.toMatchObject({ aud: RESOURCE });
    });

    it('a token signed by a key published after the last refresh (unknown kid refreshes once)', async () => {
      controlPlane.publish(rs256.publicJwk, unpublished.publicJwk);
      const fetchesBefore = controlPlane.calls.jwks;

      await expect(validator.validate(await signAccessToken(unpublished))).resolves.toBeDefined();
      expect(controlPlane.calls.jwks).toBe(fetchesBefore + 1);
    });
  });

  describe('refuses', () => {
    it('an empty token as missing', async () => {
      await expect(refusal('')).resolves.toEqual({ code: 'token_missing', message: 'token is empty' });
    });

    it('an expired token', async () => {
      const token = await signAccessToken(rs256, { iat: now() - 7200, expiresIn: 3600 });

      await expect(refusal(token)).resolves.toEqual({ code: 'token_expired', message: 'token expired' });
    });

    it('a token whose signature was tampered with', async () => {
      const [header, payload, signature] = (await signAccessToken(rs256)).split('.');
      const bytes = base64url.decode(signature);
      bytes[10] ^= 0xff;

      await expect(refusal(`${header}.${payload}.${base64url.encode(bytes)}`)).resolves.toEqual({
        code: 'signature_invalid',
        message: 'signature invalid',
      });
    });

    it('a token whose claims were changed after signing', async () => {
      const [header, , signature] = (await signAccessToken(rs256)).split('.');
      const forged = base64url.encode(
        JSON.stringify({
          iss: TEST_ISSUER,
          aud: TEST_ISSUER,
          sub: 'admin',
          client_id: 'admin',
          jti: 'x',
          iat: now(),
          exp: now() + 60,
        }),
      );

      await expect(refusal(`${header}.${forged}.${signature}`)).resolves.toMatchObject({
        code: 'signature_invalid',
      });
    });

    it('an unsecured token with alg none', async () => {
      const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid: rs256.kid }));
      const payload = base64url.encode(
        JSON.stringify({
          iss: TEST_ISSUER,
          aud: TEST_ISSUER,
          sub: 'admin',
          client_id: 'admin',
          jti: 'n',
          iat: now(),
          exp: now() + 60,
        }),
      );

      await expect(refusal(`${header}.${payload}.`)).resolves.toEqual({
        code: 'algorithm_not_allowed',
        message: 'algorithm not allowed',
      });
    });

    it('an HS256 token signed with the bytes of the public key (key confusion)', async () => {
      const publicPem = await exportSPKI(rs256.publicKey);
      const token = await new SignJWT({
        sub: 'admin',
        client_id: 'admin',
        jti: 'h',
        aud: TEST_ISSUER,
        iss: TEST_ISSUER,
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: rs256.kid })
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(publicPem));

      await expect(refusal(token)).resolves.toMatchObject({ code: 'algorithm_not_allowed' });
    });

    it('a token naming a kid the control plane does not publish, even after a refresh', async () => {
      const fetchesBefore = controlPlane.calls.jwks;

      await expect(refusal(await signAccessToken(unpublished))).resolves.toEqual({
        code: 'unknown_key',
        message: 'unknown key',
      });
      expect(controlPlane.calls.jwks).toBe(fetchesBefore + 1);
    });

    it('a token without a kid', async () => {
      await expect(
        refusal(await signAccessToken(rs256, { header: { kid: undefined } })),
      ).resolves.toMatchObject({
        code: 'unknown_key',
      });
    });

    it('a token signed with a known kid but another key', async () => {
      const impostor: TestKey = { ...unpublished, kid: rs256.kid };

      await expect(refusal(await signAccessToken(impostor))).resolves.toMatchObject({
        code: 'signature_invalid',
      });
    });

    it('a token whose alg does not match its key', async () => {
      const token = await signAccessToken({ ...ps256, kid: rs256.kid });

      await expect(refusal(token)).resolves.toMatchObject({ code: 'signature_invalid' });
    });

    it('a token with the wrong typ (a plain JWT, say an ID token)', async () => {
      await expect(refusal(await signAccessToken(rs256, { header: { typ: 'JWT' } }))).resolves.toEqual({
        code: 'claim_invalid',
        message: 'wrong typ',
      });
    });

    it('a token from another issuer', async () => {
      const token = await signAccessToken(rs256, { claims: { iss: 'https://evil.example' } });

      await expect(refusal(token)).resolves.toEqual({ code: 'claim_invalid', message: 'wrong issuer' });
    });

    it('a token for another audience', async () => {
      const token = await signAccessToken(rs256, { claims: { aud: 'https://api.other.example' } });

      await expect(refusal(token)).resolves.toEqual({ code: 'claim_invalid', message: 'wrong audience' });
    });

    it('a token restricted to a resource where no audience is named (the platform API)', async () => {
      const token = await signAccessToken(rs256, { claims: { aud: RESOURCE } });

      await expect(refusal(token)).resolves.toEqual({ code: 'claim_invalid', message: 'wrong audience' });
    });

    it('a token for the issuer, or another resource, where an audience is named', async () => {
      for (const aud of [TEST_ISSUER, 'https://api.other.example']) {
        const token = await signAccessToken(rs256, { claims: { aud } });

        await expect(refusal(token, RESOURCE)).resolves.toEqual({
          code: 'claim_invalid',
          message: 'wrong audience',
        });
      }
    });

    it('a token without an audience, or with one that is not a string', async () => {
      const missing = await signAccessToken(rs256, { claims: { aud: undefined } });
      const numeric = await signAccessToken(rs256, { claims: { aud: 7 as unknown as string } });

      await expect(refusal(missing)).resolves.toEqual({
        code: 'claim_invalid',
        message: 'missing claim aud',
      });
      await expect(refusal(numeric)).resolves.toEqual({
        code: 'claim_invalid',
        message: 'invalid claim aud',
      });
    });

    it.each([
      ['an impersonation mode it does not know', { impersonation: 'admin' }, 'invalid claim impersonation'],
      ['an actor without a subject', { act: { client_id: 'console' } }, 'invalid claim act.sub'],
    ])('a token with %s', async (_, claims, message) => {
      await expect(refusal(await signAccessToken(rs256, { claims }))).resolves.toEqual({
        code: 'claim_invalid',
        message,
      });
    });

    it.each(['exp', 'iat', 'jti', 'sub', 'client_id'])('a token without the %s claim', async (claim) => {
      const token = await signAccessToken(rs256, { claims: { [claim]: undefined } });

      await expect(refusal(token)).resolves.toEqual({
        code: 'claim_invalid',
        message: `missing claim ${claim}`,
      });
    });

    it('a token whose client_id is not a string', async () => {
      await expect(refusal(await signAccessToken(rs256, { claims: { client_id: 42 } }))).resolves.toEqual({
        code: 'claim_invalid',
        message: 'invalid claim client_id',
      });
    });

    it('a token that is not yet valid (nbf in the future)', async () => {
      const token = await signAccessToken(rs256, { claims: { nbf: now() + 600 } });

      await expect(refusal(token)).resolves.toMatchObject({ code: 'token_not_yet_valid' });
    });

    it('a string that is not a JWT', async () => {
      await expect(refusal('not-a-token')).resolves.toEqual({
        code: 'token_malformed',
        message: 'malformed token',
      });
    });

    it('a token far larger than any access token', async () => {
      await expect(refusal('a'.repeat(20_000))).resolves.toEqual({
        code: 'token_malformed',
        message: 'token too large',
      });
    });

    it('a token whose jti is on the deny-list', async () => {
      const token = await signAccessToken(rs256, { claims: { jti: 'revoked-jti' } });
      denyList.apply({
        seq: 1,
        kind: 'jti',
        value: 'revoked-jti',
        created_at: now(),
        expires_at: now() + 3600,
      });

      await expect(refusal(token)).resolves.toEqual({ code: 'token_revoked', message: 'token revoked' });
    });

    it('a token of a deleted app, issued before the deletion', async () => {
      const token = await signAccessToken(rs256, { iat: now() - 60 });
      denyList.apply({
        seq: 1,
        kind: 'client',
        value: 'reports-service',
        created_at: now() - 30,
        expires_at: now() + 3600,
      });

      await expect(refusal(token)).resolves.toMatchObject({ code: 'token_revoked' });
    });

    it('a token issued in the name of an impersonator deprovisioned since', async () => {
      const act = { sub: 'admin-7', act: { sub: 'admin-1' } };
      const token = await signAccessToken(rs256, { iat: now() - 60, claims: { sub: 'user-42', act } });
      denyList.apply({
        seq: 1,
        kind: 'subject',
        value: 'admin-1',
        created_at: now() - 30,
        expires_at: now() + 3600,
      });

      await expect(refusal(token)).resolves.toEqual({ code: 'token_revoked', message: 'token revoked' });
    });

    it('a token of a revoked grant', async () => {
      const token = await signAccessToken(rs256, { claims: { grant_id: 'grant-9' } });
      denyList.apply({
        seq: 1,
        kind: 'grant',
        value: 'grant-9',
        created_at: now(),
        expires_at: now() + 3600,
      });

      await expect(refusal(token)).resolves.toMatchObject({ code: 'token_revoked' });
    });
  });

  it('still accepts a token of an app registered again after its deletion', async () => {
    denyList.apply({
      seq: 1,
      kind: 'client',
      value: 'reports-service',
      created_at: now() - 30,
      expires_at: now() + 3600,
    });

    await expect(validator.validate(await signAccessToken(rs256))).resolves.toMatchObject({
      client_id: 'reports-service',
    });
  });

  describe('a token it accepted before (verified-token cache)', () => {
    let clock: ManualClock;
    let keys: KeyCache;
    let cached: TokenValidator;

    beforeEach(async () => {
      clock = new ManualClock(new Date());
      keys = new KeyCache(controlPlane, testConfig(), systemClock, new Readiness());
      await keys.refresh();
      cached = new TokenValidator(keys, denyList, testConfig(), clock);
    });

    afterEach(() => jest.restoreAllMocks());

    async function refusalOf(token: string, audience?: string): Promise<SidecarErrorCode | undefined> {
      const error = await cached.validate(token, audience).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      return error instanceof SidecarError ? error.code : undefined;
    }

    it('answers the same claims without checking the signature again', async () => {
      const token = await signAccessToken(rs256, { claims: { jti: 'seen-twice' } });
      const first = await cached.validate(token);
      const verify = jest.spyOn(crypto.subtle, 'verify');

      await expect(cached.validate(token)).resolves.toEqual(first);
      expect(verify).not.toHaveBeenCalled();
    });

    it('refuses it once it expires', async () => {
      const token = await signAccessToken(rs256, { iat: clock.seconds, expiresIn: 60 });
      await cached.validate(token);

      clock.advance(59_000);
      await expect(refusalOf(token)).resolves.toBeUndefined();
      clock.advance(1_000);
      await expect(refusalOf(token)).resolves.toBe('token_expired');
    });

    it('checks the audience named on every call', async () => {
      const token = await signAccessToken(rs256, { claims: { aud: RESOURCE } });
      await expect(cached.validate(token, RESOURCE)).resolves.toMatchObject({ aud: RESOURCE });
      const verify = jest.spyOn(crypto.subtle, 'verify');

      await expect(refusalOf(token)).resolves.toBe('claim_invalid');
      await expect(refusalOf(token, 'https://api.other.example')).resolves.toBe('claim_invalid');
      await expect(cached.validate(token, RESOURCE)).resolves.toMatchObject({ aud: RESOURCE });
      expect(verify).not.toHaveBeenCalled();
    });

    it('refuses a token cached for the issuer where an audience is named', async () => {
      const token = await signAccessToken(rs256);
      await cached.validate(token);

      await expect(refusalOf(token, RESOURCE)).resolves.toBe('claim_invalid');
    });

    it('refuses it as soon as it is revoked', async () => {
      const token = await signAccessToken(rs256, { claims: { jti: 'revoked-later' } });
      await cached.validate(token);

      denyList.apply({
        seq: 1,
        kind: 'jti',
        value: 'revoked-later',
        created_at: now(),
        expires_at: now() + 3600,
      });

      await expect(refusalOf(token)).resolves.toBe('token_revoked');
    });

    it('refuses it once its key is no longer published', async () => {
      const token = await signAccessToken(rs256);
      await cached.validate(token);

      controlPlane.publish(es256.publicJwk);
      await keys.refresh();

      await expect(refusalOf(token)).resolves.toBe('unknown_key');
    });

    it('checks the signature again when its kid now names another key', async () => {
      const token = await signAccessToken(rs256);
      await cached.validate(token);

      controlPlane.publish({ ...unpublished.publicJwk, kid: rs256.kid });
      await keys.refresh();

      await expect(refusalOf(token)).resolves.toBe('signature_invalid');
    });

    it('still validates every token with the cache turned off', async () => {
      const uncached = new TokenValidator(keys, denyList, testConfig({ verifiedTokenCacheSize: 0 }), clock);
      const token = await signAccessToken(rs256);
      await uncached.validate(token);
      const verify = jest.spyOn(crypto.subtle, 'verify');

      await expect(uncached.validate(token)).resolves.toMatchObject({ client_id: 'reports-service' });
      expect(verify).toHaveBeenCalledTimes(1);
    });
  });

  it('never puts the token into its error messages', async () => {
    const token = await signAccessToken(rs256, { iat: now() - 7200 });

    const { message } = await refusal(token);

    for (const segment of token.split('.')) expect(message).not.toContain(segment.slice(0, 12));
  });
});
