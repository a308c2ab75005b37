import { ManualClock } from '../clock';
import {
  assertionXml,
  base64,
  base64url,
  responseXml,
  SAML,
  samlId,
  signatureWrappingVariants,
  signRoot,
  testSigningKey,
  type AssertionParts,
  type TestSigningKey,
  XSW_VARIANTS,
} from '../testing/saml-test-idp';
import { SamlAssertionValidator } from './saml-assertion-validator';
import { SamlRefusal } from './saml-document';
import {
  DEFAULT_SAML_ATTRIBUTE_MAPPING,
  SAML_MAX_DOCUMENT_BYTES,
  type SamlIdentityProvider,
} from './saml-identity-provider';

const IDP = 'https://idp.example.com/saml';
const SP = 'https://platform.example.com/saml/acme/metadata';
const ACS = 'https://platform.example.com/saml/acme/acs';
const TOKEN_ENDPOINT = 'https://platform.example.com/v1/oauth/token';
const REQUEST = '_request-1';

let key: TestSigningKey;
let otherKey: TestSigningKey;
const clock = new ManualClock(new Date());
const validator = new SamlAssertionValidator(clock);

beforeAll(() => {
  key = testSigningKey('idp');
  otherKey = testSigningKey('attacker');
});

function idp(overrides: Partial<SamlIdentityProvider> = {}): SamlIdentityProvider {
  return {
    tenant: 'acme',
    entityId: IDP,
    ssoUrl: 'https://idp.example.com/sso',
    certificates: [key.certificate],
    attributeMapping: DEFAULT_SAML_ATTRIBUTE_MAPPING,
    roleMapping: {},
    wantResponseSigned: false,
    nameIdFormat: null,
    createdAt: clock.now(),
    updatedAt: clock.now(),
    ...overrides,
  };
}

function parts(overrides: Partial<AssertionParts> = {}): AssertionParts {
  return {
    issuer: IDP,
    nameId: 'ada@acme.example',
    audience: SP,
    recipient: ACS,
    inResponseTo: REQUEST,
    now: clock.now(),
    attributes: { email: ['ada@acme.example'], displayName: ['Ada'] },
    ...overrides,
  };
}

function signedAssertion(overrides: Partial<AssertionParts> = {}, signingKey = key): string {
  return signRoot(assertionXml(parts(overrides)), { key: signingKey });
}

function response(
  assertion: string,
  overrides: { destination?: string; inResponseTo?: string } = {},
): string {
  return responseXml({
    issuer: IDP,
    destination: ACS,
    inResponseTo: REQUEST,
    assertion,
    now: clock.now(),
    ...overrides,
  });
}

const sso = { audience: SP, recipient: ACS, destination: ACS, inResponseTo: REQUEST };

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SamlRefusal) return error.code;
    throw error;
  }
  throw new Error('accepted');
}

describe(SamlAssertionValidator.name, () => {
  describe('Web Browser SSO', () => {
    it('accepts a response whose assertion the registered IdP signed, and reads the signed XML', async () => {
      const verified = await validator.validateResponse(base64(response(signedAssertion())), idp(), sso);
      expect(verified).toMatchObject({
        issuer: IDP,
        nameId: 'ada@acme.example',
        nameIdFormat: SAML.persistent,
        attributes: { email: ['ada@acme.example'], displayName: ['Ada'] },
      });
      expect(verified.rememberUntil.getTime()).toBeGreaterThan(clock.now().getTime() + 300_000);
    });

    it('accepts a signed response around a signed assertion, and either certificate of a rollover', async () => {
      const signed = signRoot(response(signedAssertion({}, otherKey)), { key: otherKey });
      const rollover = idp({
        certificates: [key.certificate, otherKey.certificate],
        wantResponseSigned: true,
      });
      await expect(validator.validateResponse(base64(signed), rollover, sso)).resolves.toMatchObject({
        issuer: IDP,
      });
    });

    it('accepts the genuine response the wrapping variants are made of', async () => {
      const genuine = signRoot(response(signedAssertion({ nameId: 'mallory@acme.example' })), { key });
      await expect(validator.validateResponse(base64(genuine), idp(), sso)).resolves.toMatchObject({
        nameId: 'mallory@acme.example',
      });
    });

    it.each(XSW_VARIANTS)('refuses %s signature wrapping', async (variant) => {
      const genuine = signedAssertion({ nameId: 'mallory@acme.example' });
      const signedResponse = signRoot(response(genuine), { key });
      const evilAssertion = assertionXml(parts({ nameId: 'admin@acme.example', id: samlId() }));
      const forged = signatureWrappingVariants({
        signedResponse,
        signedAssertion: genuine,
        evilAssertion,
        issuer: IDP,
        destination: ACS,
        inResponseTo: REQUEST,
      })[variant];
      expect(await refusal(validator.validateResponse(base64(forged), idp(), sso))).toBe('signature_invalid');
    });

    it('refuses a comment inside the NameID (the text a signature does not cover)', async () => {
      const signed = signedAssertion({ nameId: 'ada@acme.example.evil.com' });
      const commented = signed.replace('ada@acme.example.evil.com', 'ada@acme.example<!---->.evil.com');
      expect(await refusal(validator.validateResponse(base64(response(commented)), idp(), sso))).toBe(
        'markup_forbidden',
      );
    });

    it('refuses an unsigned assertion in a signed response', async () => {
      const signed = signRoot(response(assertionXml(parts())), { key });
      expect(await refusal(validator.validateResponse(base64(signed), idp(), sso))).toBe('signature_invalid');
    });

    it('refuses an unsigned response when the registration wants it signed', async () => {
      const wants = idp({ wantResponseSigned: true });
      expect(await refusal(validator.validateResponse(base64(response(signedAssertion())), wants, sso))).toBe(
        'response_unsigned',
      );
    });

    it('refuses a signature by another key', async () => {
      const forged = response(signedAssertion({}, otherKey));
      expect(await refusal(validator.validateResponse(base64(forged), idp(), sso))).toBe('signature_invalid');
    });

    it('refuses SHA-1 before verifying anything', async () => {
      const sha1 = signRoot(assertionXml(parts()), { key, algorithms: SAML.sha1 });
      expect(await refusal(validator.validateResponse(base64(response(sha1)), idp(), sso))).toBe(
        'algorithm_forbidden',
      );
    });

    it('refuses an assertion changed after signing', async () => {
      const changed = signedAssertion().replace(
        'ada@acme.example</saml:NameID>',
        'root@acme.example</saml:NameID>',
      );
      expect(await refusal(validator.validateResponse(base64(response(changed)), idp(), sso))).toBe(
        'signature_invalid',
      );
    });

    it('refuses an expired assertion, past the clock skew', async () => {
      const now = clock.now().getTime();
      const old = signedAssertion({
        notOnOrAfter: new Date(now - 61_000),
        notBefore: new Date(now - 600_000),
      });
      expect(await refusal(validator.validateResponse(base64(response(old)), idp(), sso))).toBe('expired');
      const lapsedConfirmation = signedAssertion({ confirmationNotOnOrAfter: new Date(now - 61_000) });
      expect(
        await refusal(validator.validateResponse(base64(response(lapsedConfirmation)), idp(), sso)),
      ).toBe('expired');
    });

    it('accepts an assertion within the 60 s clock skew each way', async () => {
      const now = clock.now().getTime();
      const skewed = signedAssertion({
        notBefore: new Date(now + 50_000),
        notOnOrAfter: new Date(now - 1_000 + 50_000),
      });
      await expect(validator.validateResponse(base64(response(skewed)), idp(), sso)).resolves.toBeDefined();
    });

    it('refuses an assertion not yet valid', async () => {
      const early = signedAssertion({ notBefore: new Date(clock.now().getTime() + 120_000) });
      expect(await refusal(validator.validateResponse(base64(response(early)), idp(), sso))).toBe(
        'not_yet_valid',
      );
    });

    it('refuses another audience', async () => {
      const other = signedAssertion({ audience: 'https://platform.example.com/saml/other/metadata' });
      expect(await refusal(validator.validateResponse(base64(response(other)), idp(), sso))).toBe(
        'audience_mismatch',
      );
    });

    it('refuses another recipient, and another destination', async () => {
      const elsewhere = signedAssertion({ recipient: 'https://platform.example.com/saml/other/acs' });
      expect(await refusal(validator.validateResponse(base64(response(elsewhere)), idp(), sso))).toBe(
        'recipient_mismatch',
      );
      const misdirected = response(signedAssertion(), { destination: 'https://evil.example/acs' });
      expect(await refusal(validator.validateResponse(base64(misdirected), idp(), sso))).toBe(
        'destination_mismatch',
      );
    });

    it('refuses an unsolicited assertion and one answering another request', async () => {
      const unsolicited = response(signedAssertion({ inResponseTo: undefined }), { inResponseTo: undefined });
      expect(await refusal(validator.validateResponse(base64(unsolicited), idp(), sso))).toBe('unsolicited');
      const other = response(signedAssertion({ inResponseTo: '_other' }), { inResponseTo: undefined });
      expect(await refusal(validator.validateResponse(base64(other), idp(), sso))).toBe(
        'in_response_to_mismatch',
      );
      const noCookie = { ...sso, inResponseTo: null };
      expect(
        await refusal(validator.validateResponse(base64(response(signedAssertion())), idp(), noCookie)),
      ).toBe('in_response_to_mismatch');
    });

    it('refuses an assertion of another issuer signed with the registered key', async () => {
      const other = response(signedAssertion({ issuer: 'https://other-idp.example.com' }));
      expect(await refusal(validator.validateResponse(base64(other), idp(), sso))).toBe('issuer_mismatch');
    });

    it('refuses a DTD and entity expansion before parsing', async () => {
      const bomb =
        '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>' +
        response(signedAssertion()).replace('ada@acme.example</saml:NameID>', '&b;</saml:NameID>');
      expect(await refusal(validator.validateResponse(base64(bomb), idp(), sso))).toBe('dtd_forbidden');
    });

    it('refuses an oversized document before decoding it whole', async () => {
      const padding = `<saml:Attribute Name="x"><saml:AttributeValue>${'a'.repeat(SAML_MAX_DOCUMENT_BYTES)}</saml:AttributeValue></saml:Attribute>`;
      const large = response(signedAssertion()).replace('</samlp:Status>', `</samlp:Status>${padding}`);
      expect(await refusal(validator.validateResponse(base64(large), idp(), sso))).toBe('too_large');
    });

    it('refuses an encrypted assertion clearly', async () => {
      const encrypted = response(
        `<saml:EncryptedAssertion><xenc:EncryptedData xmlns:xenc="http://www.w3.org/2001/04/xmlenc#"/></saml:EncryptedAssertion>`,
      );
      expect(await refusal(validator.validateResponse(base64(encrypted), idp(), sso))).toBe(
        'encrypted_unsupported',
      );
    });

    it('refuses a transient NameID, which names nobody twice', async () => {
      const transient = signedAssertion({
        nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
      });
      expect(await refusal(validator.validateResponse(base64(response(transient)), idp(), sso))).toBe(
        'subject_invalid',
      );
    });

    it('refuses a response that is not Success, and garbage', async () => {
      const failed = responseXml({
        issuer: IDP,
        destination: ACS,
        inResponseTo: REQUEST,
        assertion: '',
        status: 'urn:oasis:names:tc:SAML:2.0:status:Requester',
      });
      expect(await refusal(validator.validateResponse(base64(failed), idp(), sso))).toBe(
        'status_not_success',
      );
      expect(await refusal(validator.validateResponse('not base64!', idp(), sso))).toBe('malformed');
      expect(await refusal(validator.validateResponse(base64('<a><b></a>'), idp(), sso))).toBe('malformed');
    });
  });

  describe('RFC 7522 bearer assertions', () => {
    const bearer = { audience: TOKEN_ENDPOINT, recipient: TOKEN_ENDPOINT };
    const bearerParts = {
      audience: TOKEN_ENDPOINT,
      recipient: TOKEN_ENDPOINT,
      inResponseTo: undefined,
      authnStatement: false,
    };

    it('accepts a signed assertion for the token endpoint, base64url', async () => {
      const verified = await validator.validateAssertion(
        base64url(signedAssertion(bearerParts)),
        idp(),
        bearer,
      );
      expect(verified.nameId).toBe('ada@acme.example');
    });

    it('refuses one meant for the sign-in, and an unsigned one', async () => {
      expect(await refusal(validator.validateAssertion(base64url(signedAssertion()), idp(), bearer))).toBe(
        'audience_mismatch',
      );
      const unsigned = assertionXml(parts(bearerParts));
      expect(await refusal(validator.validateAssertion(base64url(unsigned), idp(), bearer))).toBe(
        'signature_invalid',
      );
    });

    it('refuses a Response where an assertion is expected', async () => {
      const wrapped = response(signedAssertion(bearerParts));
      expect(await refusal(validator.validateAssertion(base64url(wrapped), idp(), bearer))).toBe('malformed');
    });
  });
});
