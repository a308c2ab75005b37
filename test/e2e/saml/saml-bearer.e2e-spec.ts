import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import { INVALID_GRANT_DESCRIPTION } from '@platform/domain';
import {
  assertionXml,
  base64url,
  idpMetadata,
  signRoot,
  testSigningKey,
  type AssertionParts,
  type TestSigningKey,
} from '../../../libs/domain/src/testing/saml-test-idp';
import { adminToken, discover, postForm, registerApp, type RegisteredApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { registerIdentityProvider, SAML2_BEARER, tenantAdminToken } from '../../support/saml';

/**
 * RFC 7522 at `POST /v1/oauth/token`: a service app of the tenant trades an assertion of the tenant's
 * SAML IdP for a user token, with oauth4webapi's generic grant as a stock client sends it; the
 * refusals are RFC 6749 5.2's, through plain form posts.
 */
describe('POST /v1/oauth/token (saml2-bearer): the SAML 2.0 bearer assertion grant', () => {
  const suffix = randomUUID().slice(0, 8);
  const tenant = `saml-bearer-${suffix}`;
  const entityId = `https://idp-${suffix}.example/saml`;
  let platform: TestPlatform;
  let as: oauth.AuthorizationServer;
  let key: TestSigningKey;
  let portal: RegisteredApp;
  let tokenEndpoint: string;

  beforeAll(async () => {
    key = testSigningKey('idp');
    platform = sharedPlatform();
    as = await discover(platform);
    tokenEndpoint = as.token_endpoint!;
    const token = await tenantAdminToken(platform, tenant, suffix);
    const registered = await registerIdentityProvider(platform, token, tenant, {
      metadata_xml: idpMetadata(entityId, `https://idp-${suffix}.example/sso`, [key.certificate]),
      role_mapping: { auditors: 'viewer' },
    });
    expect(registered.status).toBe(201);
    const admin = await adminToken(as, platform);
    portal = await registerApp(platform, admin, {
      client_id: `portal-${suffix}`,
      app_type: 'service',
      tenant,
      declared_scopes: ['jobs.read', 'files.read'],
    });
  });

  const assertion = (parts: Partial<AssertionParts> = {}) =>
    base64url(
      signRoot(
        assertionXml({
          issuer: entityId,
          nameId: `grace-${suffix}`,
          audience: tokenEndpoint,
          recipient: tokenEndpoint,
          authnStatement: false,
          attributes: { email: [`grace-${suffix}@example.com`], groups: ['auditors'] },
          ...parts,
        }),
        { key },
      ),
    );

  const exchange = (form: Record<string, string>, client = portal) =>
    postForm(tokenEndpoint, {
      grant_type: SAML2_BEARER,
      client_id: client.client_id,
      client_secret: client.client_secret!,
      ...form,
    });

  async function expectError(response: Response, status: number, error: string) {
    expect(response.status).toBe(status);
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe(error);
    return body;
  }

  it('is advertised as a grant type', () => {
    expect(as.grant_types_supported).toContain(SAML2_BEARER);
  });

  it('issues a user token to a stock client (oauth4webapi genericTokenEndpointRequest), once per assertion', async () => {
    const client: oauth.Client = { client_id: portal.client_id };
    const presented = assertion();
    const response = await oauth.genericTokenEndpointRequest(
      as,
      client,
      oauth.ClientSecretPost(portal.client_secret!),
      SAML2_BEARER,
      new URLSearchParams({ assertion: presented, scope: 'jobs.read' }),
      { [oauth.allowInsecureRequests]: true },
    );
    const tokens = await oauth.processGenericTokenEndpointResponse(as, client, response);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.refresh_token).toBeUndefined();
    expect(decodeJwt(tokens.access_token)).toMatchObject({
      client_id: portal.client_id,
      tenant,
      roles: ['viewer'],
      scope: 'jobs.read',
    });
    const me = await fetch(`${platform.baseUrl}/v1/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.status).toBe(200);

    const body = await expectError(await exchange({ assertion: presented }), 400, 'invalid_grant');
    expect(body.error_description).toBe(INVALID_GRANT_DESCRIPTION);
  });

  it('refuses an assertion meant for another audience, another recipient, expired, or signed by another key', async () => {
    const now = Date.now();
    const other = testSigningKey('attacker');
    for (const presented of [
      assertion({ audience: `${platform.baseUrl}/saml/${tenant}/metadata` }),
      assertion({ recipient: `${platform.baseUrl}/saml/${tenant}/acs` }),
      assertion({ notBefore: new Date(now - 600_000), notOnOrAfter: new Date(now - 120_000) }),
      base64url(
        signRoot(
          assertionXml({ issuer: entityId, nameId: 'x', audience: tokenEndpoint, recipient: tokenEndpoint }),
          { key: other },
        ),
      ),
      'not an assertion',
    ]) {
      const body = await expectError(await exchange({ assertion: presented }), 400, 'invalid_grant');
      expect(body.error_description).toBe(INVALID_GRANT_DESCRIPTION);
    }
  });

  it('answers RFC 6749 5.2 errors for the request itself', async () => {
    await expectError(await exchange({}), 400, 'invalid_request');
    await expectError(
      await exchange({ assertion: assertion(), scope: 'secrets.read' }),
      400,
      'invalid_scope',
    );
    await expectError(
      await exchange({ assertion: assertion() }, { ...portal, client_secret: 'wrong-secret' }),
      401,
      'invalid_client',
    );
    const admin = await adminToken(as, platform);
    const unbound = await registerApp(platform, admin, {
      client_id: `unbound-${suffix}`,
      app_type: 'service',
    });
    const web = await registerApp(platform, admin, {
      client_id: `web-${suffix}`,
      app_type: 'web',
      redirect_uris: [`https://web-${suffix}.example/callback`],
    });
    await expectError(await exchange({ assertion: assertion() }, web), 400, 'unauthorized_client');
    await expectError(await exchange({ assertion: assertion() }, unbound), 400, 'unauthorized_client');
    const elsewhere = await registerApp(platform, admin, {
      client_id: `elsewhere-${suffix}`,
      app_type: 'service',
      tenant: `no-idp-${suffix}`,
    });
    await expectError(await exchange({ assertion: assertion() }, elsewhere), 400, 'invalid_grant');
  });
});
