import { decodeJwt } from 'jose';
import { SAML2_BEARER_GRANT } from '../registry/application';
import {
  createTestEngine,
  expectOAuthError,
  postCredentials,
  type SeededApplication,
  type TestEngine,
} from '../testing/in-memory-stores';
import { samlEngine, TestSamlIdp, type SamlTestEngine } from '../testing/saml-test-engine';
import { Saml2BearerGrant } from './saml2-bearer.grant';

let idp: TestSamlIdp;
let engine: TestEngine;
let saml: SamlTestEngine;
let app: SeededApplication;

beforeAll(() => {
  idp = new TestSamlIdp('acme');
});

beforeEach(async () => {
  engine = await createTestEngine();
  saml = samlEngine(engine);
  await engine.stores.samlIdentityProviders.upsertSamlIdentityProvider(idp.registration());
  app = await engine.seed({
    clientId: 'portal',
    tenant: 'acme',
    declaredScopes: ['jobs.read', 'files.read'],
  });
});

const grant = (assertion: string, extra: Record<string, string> = {}, client = app) =>
  saml.tokenEndpoint.handle(
    { grant_type: SAML2_BEARER_GRANT, assertion, ...postCredentials(client), ...extra },
    undefined,
  );
const refusals = async () =>
  (await engine.stores.audit.listAuditRecords({ limit: 100 })).filter(
    (r) => r.action === 'saml.bearer_refused',
  );

describe(Saml2BearerGrant.name, () => {
  it('trades an assertion of the tenant’s IdP for an access token of the user it names, once', async () => {
    const assertion = idp.bearerAssertion({}, engine.clock.now());
    const response = await grant(assertion, { scope: 'jobs.read' });
    expect(response).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'jobs.read' });
    expect(response.refresh_token).toBeUndefined();
    const claims = decodeJwt(response.access_token);
    const user = await engine.stores.users.findUser(claims.sub as string);
    expect(user).toMatchObject({ subject: 'ada', email: 'ada@example.com', tenant: 'acme' });
    expect(claims).toMatchObject({
      client_id: 'portal',
      tenant: 'acme',
      roles: ['user'],
      scope: 'jobs.read',
    });

    await expectOAuthError(grant(assertion), 'invalid_grant');
    expect((await refusals()).map((r) => r.attributes.reason)).toEqual(['replayed']);
  });

  it('gives the app’s declared scopes when none is asked, and refuses more', async () => {
    await expect(grant(idp.bearerAssertion({}, engine.clock.now()))).resolves.toMatchObject({
      scope: 'jobs.read files.read',
    });
    await expectOAuthError(
      grant(idp.bearerAssertion({}, engine.clock.now()), { scope: 'secrets.read' }),
      'invalid_scope',
    );
  });

  it.each([
    [
      'an assertion for the sign-in',
      () => ({ audience: 'https://auth.example.com/saml/acme/metadata' }),
      'audience_mismatch',
    ],
    [
      'another recipient',
      () => ({ recipient: 'https://auth.example.com/saml/acme/acs' }),
      'recipient_mismatch',
    ],
    [
      'an expired assertion',
      (now: number) => ({ notOnOrAfter: new Date(now - 3_600_000), notBefore: new Date(now - 7_200_000) }),
      'expired',
    ],
    ['another issuer', () => ({ issuer: 'https://idp.other.example/saml' }), 'issuer_mismatch'],
  ])('refuses %s with invalid_grant, audited with its reason', async (_, parts, reason) => {
    const now = engine.clock.now();
    await expectOAuthError(grant(idp.bearerAssertion(parts(now.getTime()), now)), 'invalid_grant');
    expect((await refusals()).map((r) => r.attributes.reason)).toEqual([reason]);
  });

  it('refuses a missing assertion (invalid_request), a client of no tenant and an unknown IdP', async () => {
    await expectOAuthError(grant(''), 'invalid_request');
    const unbound = await engine.seed({ clientId: 'unbound' });
    await expectOAuthError(
      grant(idp.bearerAssertion({}, engine.clock.now()), {}, unbound),
      'unauthorized_client',
    );
    const elsewhere = await engine.seed({ clientId: 'elsewhere', tenant: 'globex' });
    await expectOAuthError(
      grant(idp.bearerAssertion({}, engine.clock.now()), {}, elsewhere),
      'invalid_grant',
    );
    expect((await refusals()).map((r) => r.attributes.reason)).toEqual(['unknown_identity_provider']);
  });

  it('refuses an app type that may not use it, and a wrong secret', async () => {
    const web = await engine.seed({ clientId: 'web', appType: 'web' });
    await expectOAuthError(
      grant(idp.bearerAssertion({}, engine.clock.now()), {}, web),
      'unauthorized_client',
    );
    await expectOAuthError(
      grant(idp.bearerAssertion({}, engine.clock.now()), {}, { ...app, secret: 'wrong' }),
      'invalid_client',
    );
  });

  it('refuses a deactivated user', async () => {
    const first = await grant(idp.bearerAssertion({}, engine.clock.now()));
    const userId = decodeJwt(first.access_token).sub as string;
    const user = await engine.stores.users.findUser(userId);
    await engine.stores.users.updateProvisionedUser(
      userId,
      user!.version,
      {
        tenant: 'acme',
        userName: 'ada',
        externalId: null,
        active: false,
        email: null,
        name: null,
        profile: {},
      },
      engine.clock.now(),
    );
    await expectOAuthError(grant(idp.bearerAssertion({}, engine.clock.now())), 'invalid_grant');
  });
});
