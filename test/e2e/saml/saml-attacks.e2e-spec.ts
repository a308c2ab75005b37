import { randomUUID } from 'node:crypto';
import {
  assertionXml,
  base64,
  idpMetadata,
  responseXml,
  SAML,
  samlId,
  signatureWrappingVariants,
  signRoot,
  testSigningKey,
  XSW_VARIANTS,
  type AssertionParts,
  type TestSigningKey,
} from '../../../libs/domain/src/testing/saml-test-idp';
import { CookieJar } from '../../support/cookie-jar';
import { adminToken, discover } from '../../support/oauth';
import { startBackendReplica, startPlatform, type TestPlatform } from '../../support/platform';
import { postToAcs, registerIdentityProvider, startSamlLogin, tenantAdminToken } from '../../support/saml';

const SESSION_COOKIE = 'session';

/**
 * The attack corpus at the real ACS (docs/saml.md, "Validation"): every forged, altered, stale,
 * misdirected or replayed Response is refused with a 400 page naming its reason, no session
 * cookie is set, and the refusal is audited; the genuine ones sign in. Crafted in the test with
 * xml-crypto (test-only signing) from a key the tenant registered through the admin route.
 */
describe('POST /saml/{tenant}/acs: the attack corpus', () => {
  const suffix = randomUUID().slice(0, 8);
  const tenant = `saml-${suffix}`;
  const entityId = `https://idp-${suffix}.example/saml`;
  let platform: TestPlatform;
  let key: TestSigningKey;
  let otherKey: TestSigningKey;
  let sp: { entityId: string; acsUrl: string };

  beforeAll(async () => {
    key = testSigningKey('idp');
    otherKey = testSigningKey('attacker');
    platform = await startPlatform();
    sp = {
      entityId: `${platform.baseUrl}/saml/${tenant}/metadata`,
      acsUrl: `${platform.baseUrl}/saml/${tenant}/acs`,
    };
    const token = await tenantAdminToken(platform, tenant, suffix);
    const response = await registerIdentityProvider(platform, token, tenant, {
      metadata_xml: idpMetadata(entityId, `https://idp-${suffix}.example/sso`, [key.certificate]),
      role_mapping: { admins: 'tenant_admin' },
    });
    expect(response.status).toBe(201);
  });

  afterAll(async () => {
    await platform?.stop();
  });

  /** An assertion as the IdP would sign it for `requestId`, with `parts` changed. */
  const assertionFor = (requestId: string | undefined, parts: Partial<AssertionParts> = {}) =>
    assertionXml({
      issuer: entityId,
      nameId: `ada-${suffix}`,
      audience: sp.entityId,
      recipient: sp.acsUrl,
      inResponseTo: requestId,
      attributes: { email: [`ada-${suffix}@example.com`], groups: ['admins'] },
      ...parts,
    });
  const signed = (
    xml: string,
    signingKey = key,
    algorithms: { signature: string; digest: string } = SAML.sha256,
  ) => signRoot(xml, { key: signingKey, algorithms });
  const responseFor = (requestId: string | undefined, assertion: string, destination = sp.acsUrl) =>
    responseXml({ issuer: entityId, destination, inResponseTo: requestId, assertion });

  /** A sign-in started in a fresh browser, answered with what `craft` makes of its request. */
  async function answer(
    craft: (requestId: string) => string,
    baseUrl = platform.baseUrl,
    jar = new CookieJar(),
  ) {
    const { requestId } = await startSamlLogin(baseUrl, jar, tenant, '/landing');
    const response = await postToAcs(baseUrl, jar, tenant, craft(requestId));
    return { response, page: await response.text(), jar, requestId };
  }

  async function expectRefused(craft: (requestId: string) => string, reason: string) {
    const { response, page, jar } = await answer(craft);
    expect(response.status).toBe(400);
    expect(page).toContain(`(${reason})`);
    expect(jar.get(platform.baseUrl, SESSION_COOKIE)).toBeUndefined();
  }

  it('signs in the genuine response: a session cookie and the redirect to return_to', async () => {
    const { response, jar } = await answer((id) => base64(responseFor(id, signed(assertionFor(id)))));
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/landing');
    expect(jar.get(platform.baseUrl, SESSION_COOKIE)).toBeDefined();
  });

  it.each(XSW_VARIANTS)('refuses %s signature wrapping', async (variant) => {
    await expectRefused((id) => {
      const genuine = signed(assertionFor(id, { nameId: `mallory-${suffix}` }));
      const forged = signatureWrappingVariants({
        signedResponse: signed(responseFor(id, genuine)),
        signedAssertion: genuine,
        evilAssertion: assertionFor(id, { nameId: `root-${suffix}`, id: samlId() }),
        issuer: entityId,
        destination: sp.acsUrl,
        inResponseTo: id,
      })[variant];
      return base64(forged);
    }, 'signature_invalid');
  });

  it('refuses a comment inside the NameID', async () => {
    await expectRefused((id) => {
      const assertion = signed(assertionFor(id, { nameId: `ada-${suffix}@example.com.evil.com` }));
      return base64(
        responseFor(id, assertion.replace('@example.com.evil.com', '@example.com<!---->.evil.com')),
      );
    }, 'markup_forbidden');
  });

  it('refuses an unsigned assertion in a signed response', async () => {
    await expectRefused((id) => base64(signed(responseFor(id, assertionFor(id)))), 'signature_invalid');
  });

  it('refuses a signature by another key, SHA-1, and an assertion changed after signing', async () => {
    await expectRefused(
      (id) => base64(responseFor(id, signed(assertionFor(id), otherKey))),
      'signature_invalid',
    );
    await expectRefused(
      (id) => base64(responseFor(id, signed(assertionFor(id), key, SAML.sha1))),
      'algorithm_forbidden',
    );
    await expectRefused(
      (id) =>
        base64(
          responseFor(
            id,
            signed(assertionFor(id)).replace(`ada-${suffix}</saml:NameID>`, `root-${suffix}</saml:NameID>`),
          ),
        ),
      'signature_invalid',
    );
  });

  it('refuses an expired assertion and one not yet valid', async () => {
    const now = Date.now();
    await expectRefused(
      (id) =>
        base64(
          responseFor(
            id,
            signed(
              assertionFor(id, { notBefore: new Date(now - 600_000), notOnOrAfter: new Date(now - 120_000) }),
            ),
          ),
        ),
      'expired',
    );
    await expectRefused(
      (id) =>
        base64(
          responseFor(
            id,
            signed(
              assertionFor(id, { notBefore: new Date(now + 300_000), notOnOrAfter: new Date(now + 600_000) }),
            ),
          ),
        ),
      'not_yet_valid',
    );
  });

  it('refuses another audience, another recipient and another destination', async () => {
    await expectRefused(
      (id) =>
        base64(
          responseFor(id, signed(assertionFor(id, { audience: `${platform.baseUrl}/saml/other/metadata` }))),
        ),
      'audience_mismatch',
    );
    await expectRefused(
      (id) =>
        base64(
          responseFor(id, signed(assertionFor(id, { recipient: `${platform.baseUrl}/saml/other/acs` }))),
        ),
      'recipient_mismatch',
    );
    await expectRefused(
      (id) => base64(responseFor(id, signed(assertionFor(id)), 'https://evil.example/acs')),
      'destination_mismatch',
    );
  });

  it('refuses an unsolicited assertion and one answering another browser’s request', async () => {
    await expectRefused(() => base64(responseFor(undefined, signed(assertionFor(undefined)))), 'unsolicited');
    const other = await startSamlLogin(platform.baseUrl, new CookieJar(), tenant);
    await expectRefused(
      () => base64(responseFor(undefined, signed(assertionFor(other.requestId)))),
      'in_response_to_mismatch',
    );
  });

  it('refuses a DTD with entity expansion, and an oversized document', async () => {
    await expectRefused(
      (id) =>
        base64(
          `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>` +
            responseFor(id, signed(assertionFor(id))),
        ),
      'dtd_forbidden',
    );
    const padding = `<saml:Attribute Name="x"><saml:AttributeValue>${'a'.repeat(300 * 1024)}</saml:AttributeValue></saml:Attribute>`;
    await expectRefused(
      (id) =>
        base64(
          responseFor(id, signed(assertionFor(id))).replace('</samlp:Status>', `</samlp:Status>${padding}`),
        ),
      'too_large',
    );
    // Past the ACS's form limit, refused before any route runs.
    const { response } = await answer(() => 'A'.repeat(1024 * 1024));
    expect(response.status).toBe(413);
  });

  it('refuses a replayed response, at this backend and at a second one with the same cookie', async () => {
    const jar = new CookieJar();
    const { requestId } = await startSamlLogin(platform.baseUrl, jar, tenant);
    const genuine = base64(responseFor(requestId, signed(assertionFor(requestId))));
    const sealed = jar.get(platform.baseUrl, 'saml')!;
    expect((await postToAcs(platform.baseUrl, jar, tenant, genuine)).status).toBe(302);

    const replayer = new CookieJar();
    replayer.set(platform.baseUrl, 'saml', sealed);
    const again = await postToAcs(platform.baseUrl, replayer, tenant, genuine);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('(replayed)');

    const second = await startBackendReplica(platform);
    try {
      const elsewhere = new CookieJar();
      elsewhere.set(second.baseUrl, 'saml', sealed);
      const replayed = await postToAcs(second.baseUrl, elsewhere, tenant, genuine);
      expect(replayed.status).toBe(400);
      expect(await replayed.text()).toContain('(replayed)');
      expect(elsewhere.get(second.baseUrl, SESSION_COOKIE)).toBeUndefined();
    } finally {
      await second.stop();
    }
  });

  it('audits every refusal with its reason and no personal data', async () => {
    const admin = await adminToken(await discover(platform), platform);
    const response = await fetch(
      `${platform.baseUrl}/api/v1/audit/records?action=saml.login_refused&tenant=${tenant}&limit=100`,
      { headers: { authorization: `Bearer ${admin}` } },
    );
    expect(response.status).toBe(200);
    const { records } = (await response.json()) as {
      records: Array<{ outcome: string; attributes: Record<string, unknown> }>;
    };
    const reasons = new Set(records.map((record) => record.attributes.reason));
    for (const reason of [
      'signature_invalid',
      'markup_forbidden',
      'algorithm_forbidden',
      'expired',
      'not_yet_valid',
      'audience_mismatch',
      'recipient_mismatch',
      'destination_mismatch',
      'unsolicited',
      'in_response_to_mismatch',
      'dtd_forbidden',
      'too_large',
      'replayed',
    ]) {
      expect(reasons).toContain(reason);
    }
    expect(records.every((record) => record.outcome === 'denied')).toBe(true);
    expect(JSON.stringify(records)).not.toContain(`ada-${suffix}`);
  });
});
