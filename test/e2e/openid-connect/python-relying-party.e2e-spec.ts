import { join } from 'node:path';
import { SESSION_COOKIE } from '../../support/browser-login';
import { CookieJar } from '../../support/cookie-jar';
import { createSession, identityOf } from '../../support/internal-consent';
import { adminToken, discover, registerApp, type RegisteredApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { describeWithPythonAuthlib, runPython } from '../../support/python';
import { approvedLanding } from './authorize-in-browser';

const SCRIPT = join(__dirname, 'relying_party.py');
const REDIRECT_URI = 'https://python-rp.example.test/callback';

/**
 * A relying party in Python (relying_party.py, Authlib unmodified) signs a user in: discovery,
 * code + PKCE + nonce, the ID token validated by Authlib (signature, iss, aud, nonce, at_hash) and
 * UserInfo. The test plays the browser between its two steps. Its own app and user on the shared platform.
 */
describeWithPythonAuthlib('OpenID Connect from Python with Authlib', () => {
  let platform: TestPlatform;
  let app: RegisteredApp;

  beforeAll(async () => {
    platform = sharedPlatform();
    const admin = await adminToken(await discover(platform), platform);
    app = await registerApp(platform, admin, {
      client_id: 'python-rp',
      app_type: 'web',
      redirect_uris: [REDIRECT_URI],
    });
  });

  async function step(env: Record<string, string>): Promise<Record<string, unknown>> {
    const { code, stdout, stderr } = await runPython(SCRIPT, {
      ISSUER: platform.baseUrl,
      CLIENT_ID: app.client_id,
      CLIENT_SECRET: app.client_secret!,
      REDIRECT_URI,
      // The platform listens on plain http at 127.0.0.1 here; Authlib wants https otherwise.
      AUTHLIB_INSECURE_TRANSPORT: '1',
      ...env,
    });
    if (code !== 0) throw new Error(`relying_party.py ${env.STEP} exited ${code}: ${stdout} ${stderr}`);
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  it('signs a user in and reads UserInfo', async () => {
    const begun = (await step({ STEP: 'begin' })) as Record<'url' | 'state' | 'nonce' | 'verifier', string>;
    const { session, user } = await createSession(
      platform,
      identityOf('python-rp-ada', 'python-rp', ['user']),
    );
    const jar = new CookieJar();
    jar.set(platform.baseUrl, SESSION_COOKIE, session);
    const callback = await approvedLanding(platform, jar, new URL(begun.url));

    const finished = await step({
      STEP: 'finish',
      CALLBACK: callback.href,
      STATE: begun.state,
      NONCE: begun.nonce,
      VERIFIER: begun.verifier,
    });
    expect(finished.claims).toMatchObject({
      iss: platform.baseUrl,
      sub: user.id,
      aud: 'python-rp',
      nonce: begun.nonce,
      at_hash: expect.any(String),
    });
    expect(finished.userinfo).toEqual({
      sub: user.id,
      name: 'python-rp-ada',
      preferred_username: 'python-rp-ada@python-rp.example.test',
      email: 'python-rp-ada@python-rp.example.test',
      updated_at: expect.any(Number),
    });
  });

  it('fails the ID token check when the nonce is not the one it sent', async () => {
    const begun = (await step({ STEP: 'begin' })) as Record<'url' | 'state' | 'verifier', string>;
    const { session } = await createSession(platform, identityOf('python-rp-bea', 'python-rp', ['user']));
    const jar = new CookieJar();
    jar.set(platform.baseUrl, SESSION_COOKIE, session);
    const callback = await approvedLanding(platform, jar, new URL(begun.url));
    await expect(
      step({
        STEP: 'finish',
        CALLBACK: callback.href,
        STATE: begun.state,
        NONCE: 'another',
        VERIFIER: begun.verifier,
      }),
    ).rejects.toThrow(/nonce/);
  });
});
