import { ALICE, BOB, SESSION_COOKIE, signInWithFetch } from '../../support/browser-login';
import { CookieJar } from '../../support/cookie-jar';
import { adminToken, discover } from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';
import { patchOp, provisioningToken, SCIM, scimClient, type ScimCall } from '../../support/scim';

/**
 * The login through the real identity provider (oidc-provider, scripts/dev-idp.mjs) meets the
 * users SCIM provisioned: the provisioned user is the one who logs in; a deactivated one is
 * refused with a page, no session.
 */
describe('SCIM-provisioned users at the identity provider login', () => {
  let platform: TestPlatform;
  let scim: ScimCall;

  beforeAll(async () => {
    platform = await startPlatform({ withIdentityProvider: true });
    const as = await discover(platform);
    scim = scimClient(
      platform.baseUrl,
      await provisioningToken(platform, as, await adminToken(as, platform), 'acme-provisioning', 'acme'),
    );
  });
  afterAll(() => platform?.stop());

  it('signs the provisioned user in as itself', async () => {
    const provisioned = await scim('POST', '/Users', {
      schemas: [SCIM.user],
      userName: BOB.email.toUpperCase(),
    });
    const jar = new CookieJar();

    const callback = await signInWithFetch(jar, platform, BOB.email);

    expect(callback.status).toBe(302);
    const linked = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${BOB.email}"`)}`);
    expect(linked.body.totalResults).toBe(1);
    expect(linked.body.Resources[0].id).toBe(provisioned.body.id);
    expect((await scim('GET', '/Users')).body.totalResults).toBe(1);
  });

  it('refuses a deactivated user with a 403 page and no session', async () => {
    const provisioned = await scim('POST', '/Users', { schemas: [SCIM.user], userName: ALICE.email });
    await scim(
      'PATCH',
      `/Users/${provisioned.body.id}`,
      patchOp({ op: 'replace', path: 'active', value: false }),
    );
    const jar = new CookieJar();

    const callback = await signInWithFetch(jar, platform, ALICE.email);

    expect(callback.status).toBe(403);
    expect(callback.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await callback.text()).toContain('This account is deactivated.');
    expect(callback.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
  });
});
