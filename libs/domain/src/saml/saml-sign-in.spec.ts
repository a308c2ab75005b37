import { inflateRawSync } from 'node:zlib';
import type { ActingPrincipal } from '../users/user-administration';
import {
  createTestEngine,
  expectDomainError,
  TEST_ISSUER,
  type TestEngine,
} from '../testing/in-memory-stores';
import { samlEngine, TestSamlIdp, type SamlTestEngine } from '../testing/saml-test-engine';
import { samlServiceProvider, samlUserIssuer } from './saml-identity-provider';
import { serviceProviderMetadata } from './saml-metadata';
import { SamlSignIn } from './saml-sign-in';

const ACME_ADMIN: ActingPrincipal = {
  kind: 'user',
  id: 'u-admin',
  clientId: 'console',
  tenant: 'acme',
  roles: ['tenant_admin'],
  scopes: ['saml.write'],
};

let acmeIdp: TestSamlIdp;
let otherIdp: TestSamlIdp;
let engine: TestEngine;
let saml: SamlTestEngine;

beforeAll(() => {
  acmeIdp = new TestSamlIdp('acme');
  otherIdp = new TestSamlIdp('globex');
});

beforeEach(async () => {
  engine = await createTestEngine();
  saml = samlEngine(engine);
  await saml.registry.put(ACME_ADMIN, 'acme', {
    metadataXml: acmeIdp.metadata(),
    attributeMapping: { email: ['email'], name: ['displayName'], groups: ['groups'] },
    roleMapping: { admins: 'tenant_admin', readers: 'viewer' },
  });
});

const now = () => engine.clock.now();
const records = async (action: string) =>
  (await engine.stores.audit.listAuditRecords({ limit: 100 })).filter((record) => record.action === action);

/** The AuthnRequest the redirect URL carries (HTTP-Redirect: deflated, base64, in `SAMLRequest`). */
function authnRequestOf(redirectUrl: string): string {
  const encoded = new URL(redirectUrl).searchParams.get('SAMLRequest') ?? '';
  return inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
}

describe(SamlSignIn.name, () => {
  it('sends an AuthnRequest over HTTP-Redirect to the registered SSO URL, naming our ACS and entity id', async () => {
    const { redirectUrl, requestId } = await saml.signIn.start('acme');
    expect(redirectUrl.startsWith('https://idp.acme.example/sso?SAMLRequest=')).toBe(true);
    const request = authnRequestOf(redirectUrl);
    const sp = samlServiceProvider(TEST_ISSUER, 'acme');
    expect(request).toContain(`ID="${requestId}"`);
    expect(request).toContain(`AssertionConsumerServiceURL="${sp.acsUrl}"`);
    expect(request).toContain(`>${sp.entityId}</saml:Issuer>`);
  });

  it('signs the user in once, with the mapped profile and roles, in the tenant of the registration', async () => {
    const { requestId } = await saml.signIn.start('acme');
    const session = await saml.signIn.finish('acme', acmeIdp.response(requestId, {}, now()), requestId);
    expect(session.user).toMatchObject({
      issuer: samlUserIssuer('acme', acmeIdp.entityId),
      subject: 'ada',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      tenant: 'acme',
      roles: ['tenant_admin'],
    });
    await expect(engine.sessions.resolve(session.session)).resolves.toMatchObject({ id: session.user.id });
    expect(await records('user.login')).toEqual([
      expect.objectContaining({
        attributes: expect.objectContaining({ method: 'saml', idp: acmeIdp.entityId }),
      }),
    ]);
  });

  it('refuses the same response again (replayed), and audits the refusal without personal data', async () => {
    const { requestId } = await saml.signIn.start('acme');
    const response = acmeIdp.response(requestId, {}, now());
    await saml.signIn.finish('acme', response, requestId);
    await expectDomainError(saml.signIn.finish('acme', response, requestId), 'validation_failed');
    const [refusal] = await records('saml.login_refused');
    expect(refusal).toMatchObject({
      tenant: 'acme',
      outcome: 'denied',
      attributes: { reason: 'replayed', idp: acmeIdp.entityId },
    });
    expect(JSON.stringify(refusal)).not.toMatch(/ada|Lovelace/);
  });

  it('takes an answer to a request once: a second assertion for the same request is refused', async () => {
    const { requestId } = await saml.signIn.start('acme');
    await saml.signIn.finish('acme', acmeIdp.response(requestId, {}, now()), requestId);
    await expect(
      saml.signIn.finish('acme', acmeIdp.response(requestId, {}, now()), requestId),
    ).rejects.toThrow(/in_response_to_mismatch/);
  });

  it('refuses an answer to an expired request', async () => {
    const { requestId } = await saml.signIn.start('acme');
    engine.clock.advance(601_000);
    await expect(
      saml.signIn.finish('acme', acmeIdp.response(requestId, {}, now()), requestId),
    ).rejects.toThrow(/in_response_to_mismatch/);
  });

  it('refuses a browser that came back without its request, and an answer to another browser’s', async () => {
    const { requestId } = await saml.signIn.start('acme');
    await expect(saml.signIn.finish('acme', acmeIdp.response(requestId, {}, now()), null)).rejects.toThrow(
      /in_response_to_mismatch/,
    );
    const mine = await saml.signIn.start('acme');
    await expect(
      saml.signIn.finish('acme', acmeIdp.response(requestId, {}, now()), mine.requestId),
    ).rejects.toThrow(/in_response_to_mismatch/);
    expect((await records('user.login')).length).toBe(0);
  });

  it('refuses an assertion signed by a key the tenant did not register, and an unknown tenant', async () => {
    const { requestId } = await saml.signIn.start('acme');
    const forger = new TestSamlIdp('acme', { key: otherIdp.key });
    await expect(
      saml.signIn.finish('acme', forger.response(requestId, {}, now()), requestId),
    ).rejects.toThrow(/signature_invalid/);
    await expectDomainError(saml.signIn.start('nobody'), 'not_found');
  });

  it('links a SCIM-provisioned user by the OpenID Connect login’s rule (userName = email)', async () => {
    await engine.stores.users.insertProvisionedUser(
      {
        id: 'provisioned-ada',
        tenant: 'acme',
        userName: 'ada@example.com',
        externalId: null,
        active: true,
        email: 'ada@example.com',
        name: 'Ada',
        profile: {},
        roles: ['user'],
      },
      now(),
    );
    const { requestId } = await saml.signIn.start('acme');
    const session = await saml.signIn.finish('acme', acmeIdp.response(requestId, {}, now()), requestId);
    expect(session.user.id).toBe('provisioned-ada');
    expect(await records('user.linked')).toHaveLength(1);
  });

  it('keeps a known user’s roles when no groups attribute comes, and gives user for unmapped groups', async () => {
    const first = await saml.signIn.start('acme');
    await saml.signIn.finish('acme', acmeIdp.response(first.requestId, {}, now()), first.requestId);
    const second = await saml.signIn.start('acme');
    const kept = await saml.signIn.finish(
      'acme',
      acmeIdp.response(second.requestId, { attributes: { email: ['ada@example.com'] } }, now()),
      second.requestId,
    );
    expect(kept.user.roles).toEqual(['tenant_admin']);
    const third = await saml.signIn.start('acme');
    const unmapped = await saml.signIn.finish(
      'acme',
      acmeIdp.response(third.requestId, { attributes: { groups: ['global_admin', 'staff'] } }, now()),
      third.requestId,
    );
    expect(unmapped.user.roles).toEqual(['user']);
  });

  it('keeps two tenants’ users apart even under one IdP entity id', async () => {
    const globexAdmin: ActingPrincipal = { ...ACME_ADMIN, id: 'u-g', tenant: 'globex' };
    // globex registers acme's entity id with its own key: it reaches no acme user.
    const impostor = new TestSamlIdp('globex', { key: otherIdp.key, entityId: acmeIdp.entityId });
    await saml.registry.put(globexAdmin, 'globex', { metadataXml: impostor.metadata() });
    const acme = await saml.signIn.start('acme');
    const acmeUser = await saml.signIn.finish(
      'acme',
      acmeIdp.response(acme.requestId, {}, now()),
      acme.requestId,
    );
    const globex = await saml.signIn.start('globex');
    const globexUser = await saml.signIn.finish(
      'globex',
      impostor.response(globex.requestId, {}, now()),
      globex.requestId,
    );
    expect(globexUser.user.subject).toBe(acmeUser.user.subject);
    expect(globexUser.user.id).not.toBe(acmeUser.user.id);
    expect(globexUser.user.tenant).toBe('globex');
    await expect(engine.stores.users.findUser(acmeUser.user.id)).resolves.toMatchObject({ tenant: 'acme' });
  });
});

describe('SAML registration', () => {
  it('refuses a role mapping to global_admin, and metadata without a certificate', async () => {
    await expectDomainError(
      saml.registry.put(ACME_ADMIN, 'acme', {
        metadataXml: acmeIdp.metadata(),
        roleMapping: { ops: 'global_admin' },
      }),
      'validation_failed',
    );
    await expectDomainError(
      saml.registry.put(ACME_ADMIN, 'acme', { metadataXml: acmeIdp.metadata([]) }),
      'validation_failed',
    );
  });

  it('keeps every certificate of a rollover, and refuses another tenant’s administrator', async () => {
    const { idp, created } = await saml.registry.put(ACME_ADMIN, 'acme', {
      metadataXml: acmeIdp.metadata([acmeIdp.key.certificate, otherIdp.key.certificate]),
    });
    expect(created).toBe(false);
    expect(idp.certificates).toHaveLength(2);
    const globexAdmin: ActingPrincipal = { ...ACME_ADMIN, id: 'u-g', tenant: 'globex' };
    await expectDomainError(saml.registry.get(globexAdmin, 'acme'), 'forbidden');
  });

  it('publishes the tenant’s SP metadata with its entity id and ACS', () => {
    const sp = samlServiceProvider(TEST_ISSUER, 'acme');
    const metadata = serviceProviderMetadata(sp);
    expect(metadata).toContain(`entityID="${sp.entityId}"`);
    expect(metadata).toContain(`Location="${sp.acsUrl}"`);
    expect(metadata).toContain('WantAssertionsSigned="true"');
  });
});
