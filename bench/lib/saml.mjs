import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes, sign, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { FORM, form, issueToken, registerServiceApp } from './oauth.mjs';

const require = createRequire(import.meta.url);
const { SignedXml } = require('xml-crypto');

const SAML2_BEARER = 'urn:ietf:params:oauth:grant-type:saml2-bearer';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const SAML_ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
/** Where the registered IdP signs users in: never visited, the harness answers for it. */
const IDP_SSO_URL = 'https://idp.bench.example/sso';

const samlId = () => `_${randomBytes(16).toString('hex')}`;
const isoIn = (ms) => new Date(Date.now() + ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * An unsigned assertion valid 10 minutes, with an email attribute; for a sign-in also the
 * request it answers and an AuthnStatement (the bearer grant requires neither).
 */
function assertionXml({ issuer, audience, recipient, nameId, inResponseTo, authnStatement = false }) {
  const answering = inResponseTo === undefined ? '' : ` InResponseTo="${inResponseTo}"`;
  return (
    `<saml:Assertion xmlns:saml="${SAML_ASSERTION}" ID="${samlId()}" Version="2.0" IssueInstant="${isoIn(0)}">` +
    `<saml:Issuer>${issuer}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${nameId}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${answering} NotOnOrAfter="${isoIn(600_000)}" Recipient="${recipient}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${isoIn(-60_000)}" NotOnOrAfter="${isoIn(600_000)}"><saml:AudienceRestriction><saml:Audience>${audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    (authnStatement
      ? `<saml:AuthnStatement AuthnInstant="${isoIn(0)}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`
      : '') +
    `<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${nameId}@bench.example</saml:AttributeValue></saml:Attribute></saml:AttributeStatement></saml:Assertion>`
  );
}

/** The assertion signed with RSA-SHA256 (enveloped, exclusive c14n), the Signature after its Issuer. */
function signed(privateKey, assertion) {
  const signer = new SignedXml({
    privateKey,
    canonicalizationAlgorithm: EXC_C14N,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  });
  signer.addReference({
    xpath: "/*[local-name(.)='Assertion']",
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', EXC_C14N],
  });
  signer.computeSignature(assertion, {
    prefix: 'ds',
    location: { reference: "/*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
  });
  return signer.getSignedXml();
}

/**
 * A SAML IdP of the harness (test-only signing): an RSA-2048 key with a self-signed certificate
 * (openssl), RFC 7522 assertions for the token endpoint and Web SSO Responses, their assertions
 * signed with RSA-SHA256 by xml-crypto.
 */
export function samlIdp(entityId) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-saml-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'k.pem'),
        '-out',
        join(dir, 'c.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=bench-idp',
      ],
      { stdio: 'ignore' },
    );
    const privateKey = readFileSync(join(dir, 'k.pem'), 'utf8');
    const certificate = readFileSync(join(dir, 'c.pem'), 'utf8')
      .replace(/-----[^-]+-----/g, '')
      .replace(/\s+/g, '');
    return {
      entityId,
      certificate,
      metadata: (ssoUrl) =>
        `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor><md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/></md:IDPSSODescriptor></md:EntityDescriptor>`,
      /** One signed assertion for `audience` (the token endpoint), base64url, valid 10 minutes. */
      assertion(audience, nameId) {
        const xml = assertionXml({ issuer: entityId, audience, recipient: audience, nameId });
        return Buffer.from(signed(privateKey, xml), 'utf8').toString('base64url');
      },
      /**
       * The Web SSO answer to an AuthnRequest (`readAuthnRequest`): a Response to the ACS around one
       * signed assertion (AuthnStatement, InResponseTo the request's ID), base64 as the IdP's
       * auto-post form sends it.
       */
      response({ id, acsUrl, spEntityId }, nameId) {
        const assertion = signed(
          privateKey,
          assertionXml({
            issuer: entityId,
            audience: spEntityId,
            recipient: acsUrl,
            nameId,
            inResponseTo: id,
            authnStatement: true,
          }),
        );
        const xml =
          `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="${SAML_ASSERTION}" ID="${samlId()}" Version="2.0" IssueInstant="${isoIn(0)}" Destination="${acsUrl}" InResponseTo="${id}">` +
          `<saml:Issuer>${entityId}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
        return Buffer.from(xml, 'utf8').toString('base64');
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `idp` as the SAML identity provider of a new `tenant`, with a platform admin's token. */
export async function registerIdentityProvider(platform, tenant, idp) {
  const admin = await issueToken(`${platform.baseUrl}/v1/oauth/token`, platform.admin, 'admin.*');
  const registered = await fetch(`${platform.baseUrl}/api/v1/tenants/${tenant}/saml/identity-provider`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${admin.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ metadata_xml: idp.metadata(IDP_SSO_URL) }),
  });
  if (registered.status !== 201) throw new Error(`SAML IdP registration answered ${registered.status}`);
}

/**
 * What an IdP reads from an AuthnRequest sent over HTTP-Redirect (deflated, base64, in the
 * `SAMLRequest` parameter of `redirectUrl`): its ID, the ACS to post to, the SP's entity id.
 */
export function readAuthnRequest(redirectUrl) {
  const encoded = new URL(redirectUrl).searchParams.get('SAMLRequest') ?? '';
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  const request = {
    id: /\sID="([^"]+)"/.exec(xml)?.[1],
    acsUrl: /\sAssertionConsumerServiceURL="([^"]+)"/.exec(xml)?.[1],
    spEntityId: /<(?:\w+:)?Issuer[^>]*>([^<]+)</.exec(xml)?.[1],
  };
  if (Object.values(request).includes(undefined))
    throw new Error(`an AuthnRequest without ID, ACS or Issuer: ${xml}`);
  return request;
}

/**
 * The signature check's cost on one core, in this process: the platform's SAML validation of one
 * RFC 7522 assertion (node-saml over xml-crypto: parse, canonicalize, digest, RSA verify, then the
 * rules on the signed XML) against a bare RSA-SHA256 verify of the same size of input.
 */
async function measureValidation(idp, audience, seconds) {
  const { SamlAssertionValidator, systemClock } = require('@platform/domain');
  const validator = new SamlAssertionValidator(systemClock);
  const registration = {
    tenant: 'bench',
    entityId: idp.entityId,
    ssoUrl: IDP_SSO_URL,
    certificates: [idp.certificate],
    attributeMapping: { email: ['email'], name: ['displayName'], groups: ['groups'] },
    roleMapping: {},
    wantResponseSigned: false,
    nameIdFormat: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  };
  const assertion = idp.assertion(audience, 'bench-user');
  const expect = { audience, recipient: audience };
  await validator.validateAssertion(assertion, registration, expect); // it must pass
  const validations = await rate(seconds, () => validator.validateAssertion(assertion, registration, expect));
  const input = Buffer.from(assertion, 'base64url').subarray(0, 700); // a SignedInfo's size
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signature = sign('sha256', input, pair.privateKey);
  const verifies = await rate(seconds, () => {
    if (!verify('sha256', input, pair.publicKey, signature)) throw new Error('verify failed');
  });
  return { validations, verifies };
}

/** Operations per second of `operation` run back to back for `seconds`, after a tenth of that to warm. */
export async function rate(seconds, operation) {
  const run = async (budgetSeconds) => {
    const started = performance.now();
    let count = 0;
    while (performance.now() - started < budgetSeconds * 1000) {
      for (let i = 0; i < 8; i++) await operation();
      count += 8;
    }
    return count / ((performance.now() - started) / 1000);
  };
  await run(seconds / 10);
  return Math.round(await run(seconds));
}

/**
 * `saml-bearer`: SAML 2.0 bearer grant issuance/s (RFC 7522: client_secret_post and a new signed
 * assertion per request, signed ahead: a validation, a shared insert of its ID, a user upsert and
 * a token) beside client_credentials, in turns on the same platform; and the signature check's
 * cost on one core (docs/saml.md, "Figures").
 */
export async function samlBearerScenario(ctx) {
  const { platform, app } = ctx;
  const tokenUrl = `${platform.baseUrl}/v1/oauth/token`;
  const suffix = Date.now().toString(36);
  const tenant = `bench-saml-${suffix}`;
  const idp = samlIdp(`https://idp-${suffix}.bench.example/saml`);

  const seconds = Math.min(ctx.options.duration, ctx.options.quick ? 1 : 3);
  ctx.progress(`SAML assertion validation vs RSA-SHA256 verify, one core (${seconds} s each)`);
  const { validations, verifies } = await measureValidation(idp, tokenUrl, seconds);

  await registerIdentityProvider(platform, tenant, idp);
  const client = await registerServiceApp(platform, `bench-saml-${suffix}`, ['jobs.read'], { tenant });

  // Each assertion is taken once: signed before the load (the IdP's work, not the platform's),
  // for a few hundred users, live once the pool is used up.
  const { warmup, duration } = ctx.options;
  ctx.progress('signing SAML assertions ahead of the load');
  const size = Math.min(20_000, (warmup + duration) * 700);
  const pool = Array.from({ length: size }, (_, n) => idp.assertion(tokenUrl, `user-${n % 500}`));
  let next = 0;
  const body = () =>
    form({
      grant_type: SAML2_BEARER,
      client_id: client.clientId,
      client_secret: client.clientSecret,
      assertion: next < pool.length ? pool[next++] : idp.assertion(tokenUrl, 'late-user'),
      scope: 'jobs.read',
    });
  const once = await fetch(tokenUrl, { method: 'POST', headers: { 'content-type': FORM }, body: body() });
  if (once.status !== 200)
    throw new Error(`SAML bearer issuance failed: ${once.status} ${await once.text()}`);

  ctx.progress('issuance with the SAML bearer grant vs client_credentials, in turns');
  const [samlRow, secretRow] = await ctx.compare([
    {
      name: 'issuance: POST /v1/oauth/token, saml2-bearer',
      request: {
        url: tokenUrl,
        method: 'POST',
        headers: { 'content-type': FORM },
        setupRequest: (request) => ({ ...request, body: body() }),
      },
    },
    {
      name: 'issuance: POST /v1/oauth/token, client_credentials',
      request: {
        url: tokenUrl,
        method: 'POST',
        headers: { 'content-type': FORM },
        body: form({
          grant_type: 'client_credentials',
          client_id: app.clientId,
          client_secret: app.clientSecret,
          scope: 'jobs.read',
        }),
      },
    },
  ]);
  return [
    {
      key: 'saml-validate',
      label: 'SAML assertion validation (node-saml, RSA-SHA256), 1 core, in process',
      rps: validations,
      unit: 'ops/s',
      ratios: [{ against: 'saml-rsa-verify' }],
    },
    { key: 'saml-rsa-verify', label: 'RSA-SHA256 verify alone, 1 core', rps: verifies, unit: 'ops/s' },
    {
      key: 'issuance-saml-bearer',
      label: 'Issuance with the SAML 2.0 bearer grant (a new signed assertion per request, signed ahead)',
      ...samlRow,
      ratios: [{ against: 'issuance-saml-client-secret' }],
    },
    {
      key: 'issuance-saml-client-secret',
      label: 'Issuance with client_credentials, beside the SAML grant',
      ...secretRow,
    },
  ];
}
