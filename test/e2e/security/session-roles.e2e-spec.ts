import { generateKeyPair, SignJWT } from 'jose';
import { locationOf, SESSION_COOKIE, signInWithFetch } from '../../support/browser-login';
import { CookieJar } from '../../support/cookie-jar';
import { internalPost } from '../../support/internal-consent';
import { startPlatform, type TestPlatform } from '../../support/platform';

/**
 * `POST /internal/v1/sessions` takes the identity provider's word only: the ID token it signed,
 * verified by the control plane. The internal token alone opens no session, let alone one with
 * `global_admin`. This platform runs without the test seam, as production does.
 */
describe('a session has the roles the identity provider signed, and no others', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startPlatform({
      withIdentityProvider: true,
      env: { TEST_SESSIONS_FROM_CLAIMS: 'false' },
    });
  });
  afterAll(() => platform?.stop());

  it('refuses an identity handed over as claims with the internal token: no session, no admin', async () => {
    const response = await internalPost(platform, '/internal/v1/sessions', {
      issuer: platform.identityProvider?.issuer,
      subject: 'mallory',
      claims: { email: 'mallory@platform.example', tenant: 'platform', roles: ['global_admin'] },
    });
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { detail: string; session?: unknown };
    expect(problem.detail).toMatch(/id_token only: claims are not taken on trust/);
    expect(problem.session).toBeUndefined();
  });

  it('refuses an ID token the identity provider did not sign', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ tenant: 'platform', roles: ['global_admin'] })
      .setProtectedHeader({ alg: 'RS256', kid: 'forged' })
      .setIssuer(platform.identityProvider?.issuer ?? '')
      .setAudience(platform.identityProvider?.clientId ?? '')
      .setSubject('mallory')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    const response = await internalPost(platform, '/internal/v1/sessions', { id_token: forged });
    expect(response.status).toBe(401);
  });

  it("signs the provider's global_admin in through the real login, with the role it signed", async () => {
    const jar = new CookieJar();
    const callback = await signInWithFetch(jar, platform, 'root@platform.example', '/health');
    expect(callback.status).toBe(302);
    expect(locationOf(callback, new URL(platform.baseUrl)).pathname).toBe('/health');
    const session = jar.get(platform.baseUrl, SESSION_COOKIE);
    const resolved = await internalPost(platform, '/internal/v1/sessions/resolve', { session });
    expect(resolved.status).toBe(200);
    expect(await resolved.json()).toMatchObject({
      user: { email: 'root@platform.example', tenant: 'platform', roles: ['global_admin'] },
    });
  });
});
