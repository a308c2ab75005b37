import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import * as client from 'openid-client';
import type { Browser } from 'playwright-core';
import { testSigningKey } from '../../../libs/domain/src/testing/saml-test-idp';
import { describeInBrowser, launchChromium } from '../../support/browser';
import { startRedirectCatcher } from '../../support/browser-login';
import { clientFor } from '../../support/internal-consent';
import { adminToken, discover, registerApp, type RegisteredApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import {
  describeWithPysaml2,
  Pysaml2Idp,
  registerIdentityProvider,
  tenantAdminToken,
} from '../../support/saml';

/**
 * A user of a tenant signs in through a real SAML identity provider (Debian's pysaml2: its own
 * AuthnRequest parsing, its own signing with xmlsec1) in a real browser, end to end: the tenant
 * admin imports the IdP's metadata through the admin route, the IdP is configured with the
 * tenant's published SP metadata, and the sign-in ends in the platform's own code flow.
 */
describeWithPysaml2('SAML sign-in through pysaml2', () => {
  describeInBrowser('in a real browser', () => {
    const suffix = randomUUID().slice(0, 8);
    const tenant = `saml-browser-${suffix}`;
    let platform: TestPlatform;
    let idp: Pysaml2Idp;
    let browser: Browser;
    let catcher: Awaited<ReturnType<typeof startRedirectCatcher>>;
    let app: RegisteredApp;
    let adminOfTenant: string;

    beforeAll(async () => {
      platform = sharedPlatform();
      catcher = await startRedirectCatcher();
      adminOfTenant = await tenantAdminToken(platform, tenant, suffix);
      const spMetadata = await (await fetch(`${platform.baseUrl}/saml/${tenant}/metadata`)).text();
      idp = new Pysaml2Idp(testSigningKey('pysaml2'), {
        grace: {
          password: 'correct horse',
          name_id: `grace-${suffix}`,
          attributes: {
            mail: [`grace-${suffix}@example.com`],
            displayName: ['Grace Hopper'],
            eduPersonAffiliation: ['staff', 'platform-admins'],
          },
        },
      });
      await idp.start(spMetadata);
      const registered = await registerIdentityProvider(platform, adminOfTenant, tenant, {
        metadata_xml: await idp.metadata(),
        attribute_mapping: { groups: ['urn:oid:1.3.6.1.4.1.5923.1.1.1.1'] },
        role_mapping: { 'platform-admins': 'tenant_admin' },
      });
      expect(registered.status).toBe(201);
      const admin = await adminToken(await discover(platform), platform);
      app = await registerApp(platform, admin, {
        client_id: `saml-portal-${suffix}`,
        name: 'SAML portal',
        app_type: 'web',
        declared_scopes: ['jobs.read'],
        redirect_uris: [catcher.redirectUri],
      });
      browser = await launchChromium();
    });

    afterAll(async () => {
      await browser?.close();
      await catcher?.close();
      idp?.stop();
    });

    it('publishes the tenant’s SP metadata, and keeps the imported IdP', async () => {
      const metadata = await fetch(`${platform.baseUrl}/saml/${tenant}/metadata`);
      expect(metadata.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
      expect(await metadata.text()).toContain(`Location="${platform.baseUrl}/saml/${tenant}/acs"`);
      const registration = await fetch(
        `${platform.baseUrl}/api/v1/tenants/${tenant}/saml/identity-provider`,
        {
          headers: { authorization: `Bearer ${adminOfTenant}` },
        },
      );
      expect(registration.status).toBe(200);
      expect(await registration.json()).toMatchObject({ entity_id: idp.entityId, tenant });
    });

    it('signs Grace in at the IdP, and the code flow gives her app a token of her tenant and mapped role', async () => {
      const config = await clientFor(platform, app);
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const authorizationUrl = client.buildAuthorizationUrl(config, {
        redirect_uri: catcher.redirectUri,
        scope: 'jobs.read',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      const returnTo = `${authorizationUrl.pathname}${authorizationUrl.search}`;
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        const landing = catcher.next(30_000);
        await page.goto(`${platform.baseUrl}/saml/${tenant}/login?return_to=${encodeURIComponent(returnTo)}`);
        expect(page.url().startsWith(`${idp.baseUrl}/sso/redirect?SAMLRequest=`)).toBe(true);
        await page.getByLabel('Username').fill('grace');
        await page.getByLabel('Password').fill('correct horse');
        await page.getByRole('button', { name: 'Sign in' }).click();
        // pysaml2's page posts the Response to the ACS; the platform opens the session and
        // goes on with the authorization request: the consent page.
        await page.getByRole('button', { name: 'Approve', exact: true }).click();
        const callback = await landing;
        const tokens = await client.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: verifier,
          expectedState: state,
        });
        expect(decodeJwt(tokens.access_token)).toMatchObject({
          tenant,
          roles: ['tenant_admin'],
          scope: 'jobs.read',
        });
        const cookies = await context.cookies(platform.baseUrl);
        expect(cookies.map((cookie) => cookie.name)).toContain('session');
        // The attributes pysaml2 sent (by their OIDs) are her profile; her login is audited.
        const admin = await adminToken(await discover(platform), platform);
        const users = (await (
          await fetch(`${platform.baseUrl}/api/v1/tenants/${tenant}/users`, {
            headers: { authorization: `Bearer ${admin}` },
          })
        ).json()) as Array<{ email: string; name: string; roles: string[] }>;
        expect(users).toContainEqual(
          expect.objectContaining({
            email: `grace-${suffix}@example.com`,
            name: 'Grace Hopper',
            roles: ['tenant_admin'],
          }),
        );
        const logins = (await (
          await fetch(
            `${platform.baseUrl}/api/v1/audit/records?action=user.login&tenant=${tenant}&limit=10`,
            {
              headers: { authorization: `Bearer ${admin}` },
            },
          )
        ).json()) as { records: Array<{ attributes: Record<string, unknown> }> };
        expect(logins.records).toContainEqual(
          expect.objectContaining({
            attributes: expect.objectContaining({ method: 'saml', idp: idp.entityId }),
          }),
        );
      } finally {
        await context.close();
      }
    });

    it('keeps a wrong password at the IdP: no session at the platform', async () => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(`${platform.baseUrl}/saml/${tenant}/login`);
        await page.getByLabel('Username').fill('grace');
        await page.getByLabel('Password').fill('wrong');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByText('wrong username or password').waitFor();
        expect((await context.cookies(platform.baseUrl)).map((cookie) => cookie.name)).not.toContain(
          'session',
        );
      } finally {
        await context.close();
      }
    });
  });
});
