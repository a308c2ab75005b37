import { SAML, SamlStatusError, ValidateInResponseTo } from '@node-saml/node-saml';
import type { Clock } from '../clock';
import {
  checkSamlDocument,
  checkSamlText,
  childElements,
  decodeSamlMessage,
  instantOf,
  onlyChild,
  parseSamlXml,
  SAML_NS,
  SamlRefusal,
  type SamlRefusalCode,
  textOf,
} from './saml-document';
import {
  SAML_CLOCK_SKEW_SECONDS,
  SAML_MAX_DOCUMENT_BYTES,
  type SamlIdentityProvider,
} from './saml-identity-provider';

const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
/** Longest NameID taken: it becomes the user's stored subject. */
const MAX_NAME_ID_LENGTH = 512;

/** What an assertion must say to be taken here. */
export interface SamlExpectations {
  /** An `Audience` every `AudienceRestriction` must hold: the tenant's SP entity id, or the token endpoint. */
  audience: string;
  /** The bearer `SubjectConfirmationData`'s `Recipient`: the ACS URL, or the token endpoint. */
  recipient: string;
  /**
   * Web SSO: the ID of the AuthnRequest this browser left with (null when it came back without
   * one), which the assertion's `InResponseTo` must be. Absent for RFC 7522: no request.
   */
  inResponseTo?: string | null;
  /** Web SSO: the Response's `Destination` (required when the Response is signed). */
  destination?: string;
}

/** An assertion that passed every check: read from the signed XML only. */
export interface VerifiedAssertion {
  id: string;
  issuer: string;
  nameId: string;
  nameIdFormat: string | null;
  /** Attribute `Name` -> its values (text values; values with markup are left out). */
  attributes: Record<string, string[]>;
  /** The assertion is refused after this anyway (skew included): its id is remembered until then. */
  rememberUntil: Date;
}

/**
 * The SAML checks (docs/saml.md, "Validation"), on node-saml 5.1 (xml-crypto, xmldom): node-saml
 * verifies the signature against the IdP's registered certificates and hands back the XML the
 * signature covers, and every rule here reads that XML only, so what is consumed is what was
 * signed (no signature wrapping). Around it, ours: refusals before parsing (size, DTD, comments,
 * encryption, algorithms), the issuer, audience, recipient, destination, times with
 * `SAML_CLOCK_SKEW_SECONDS` on our clock, and `InResponseTo`. One-time use is the caller's
 * (the assertion's id, `rememberUntil`).
 */
export class SamlAssertionValidator {
  constructor(private readonly clock: Clock) {}

  /** Web Browser SSO: a base64 `SAMLResponse` posted to the ACS. */
  async validateResponse(
    samlResponse: string,
    idp: SamlIdentityProvider,
    expect: SamlExpectations & { inResponseTo: string | null; destination: string },
  ): Promise<VerifiedAssertion> {
    const xml = decodeSamlMessage(samlResponse, SAML_MAX_DOCUMENT_BYTES);
    const response = this.parsed(xml);
    if (response.namespaceURI !== SAML_NS.protocol || response.localName !== 'Response') {
      throw new SamlRefusal('malformed', 'the document is not a SAML Response');
    }
    checkResponse(response, idp, expect);
    const responseSigned = childElements(response, SAML_NS.dsig, 'Signature').length > 0;
    const signed = await this.verified(xml, idp, idp.wantResponseSigned, responseSigned);
    return this.checkAssertion(signed, idp, expect, { authnStatement: true });
  }

  /** RFC 7522: a bare `Assertion`, base64url, presented at the token endpoint. */
  async validateAssertion(
    assertion: string,
    idp: SamlIdentityProvider,
    expect: SamlExpectations,
  ): Promise<VerifiedAssertion> {
    const xml = decodeSamlMessage(assertion, SAML_MAX_DOCUMENT_BYTES);
    const root = this.parsed(xml);
    if (root.namespaceURI !== SAML_NS.assertion || root.localName !== 'Assertion') {
      throw new SamlRefusal('malformed', 'the assertion is not a SAML Assertion');
    }
    // node-saml verifies assertions inside a Response: the assertion goes into an unsigned
    // envelope of ours, which nothing reads (exclusive canonicalization, the only one taken,
    // does not depend on the envelope; the signed assertion is what node-saml hands back).
    const envelope =
      `<samlp:Response xmlns:samlp="${SAML_NS.protocol}" ID="_rfc7522-envelope" Version="2.0" ` +
      `IssueInstant="${this.clock.now().toISOString()}"><samlp:Status><samlp:StatusCode Value="${SUCCESS}"/>` +
      `</samlp:Status>${xml.replace(/^\uFEFF?\s*<\?xml\s[^?]*\?>/, '')}</samlp:Response>`;
    const signed = await this.verified(envelope, idp, false, false);
    return this.checkAssertion(signed, idp, expect, { authnStatement: false });
  }

  /** The text checks, the parse, and the document-wide refusals. */
  private parsed(xml: string): Element {
    checkSamlText(xml, SAML_MAX_DOCUMENT_BYTES);
    const document = parseSamlXml(xml);
    checkSamlDocument(document);
    return document.documentElement;
  }

  /** node-saml's verification; answers the signed assertion's XML (what the signature covers). */
  private async verified(
    xml: string,
    idp: SamlIdentityProvider,
    wantResponseSigned: boolean,
    responseSigned: boolean,
  ): Promise<Element> {
    const saml = new SAML({
      callbackUrl: 'urn:unused', // our own checks compare Recipient and Destination
      issuer: 'urn:unused',
      audience: false, // checked below on the signed XML, with every AudienceRestriction
      idpCert: idp.certificates,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: wantResponseSigned,
      // Times are checked below on our clock; InResponseTo below and in the request store.
      acceptedClockSkewMs: -1,
      validateInResponseTo: ValidateInResponseTo.never,
    });
    let signedXml: string;
    try {
      const { profile } = await saml.validatePostResponseAsync({
        SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'),
      });
      if (profile === null) throw new SamlRefusal('malformed', 'the response holds no assertion');
      signedXml = profile.getAssertionXml?.() ?? '';
    } catch (error) {
      throw refusalOf(error, responseSigned);
    }
    // The canonical form of the signed assertion: parsed again, strictly, and read alone.
    checkSamlText(signedXml, SAML_MAX_DOCUMENT_BYTES);
    const assertion = parseSamlXml(signedXml).documentElement;
    if (assertion.namespaceURI !== SAML_NS.assertion || assertion.localName !== 'Assertion') {
      throw new SamlRefusal('signature_invalid', 'the signed element is not an assertion');
    }
    return assertion;
  }

  private checkAssertion(
    assertion: Element,
    idp: SamlIdentityProvider,
    expect: SamlExpectations,
    profile: { authnStatement: boolean },
  ): VerifiedAssertion {
    const now = this.clock.now().getTime();
    const skew = SAML_CLOCK_SKEW_SECONDS * 1000;
    const id = assertion.getAttribute('ID') ?? '';
    if (
      id === '' ||
      assertion.getAttribute('Version') !== '2.0' ||
      instantOf(assertion, 'IssueInstant') === undefined
    ) {
      throw new SamlRefusal('malformed', 'the assertion lacks its ID, Version 2.0 or IssueInstant');
    }
    const issuer = textOf(
      onlyChild(assertion, SAML_NS.assertion, 'Issuer', 'issuer_mismatch'),
      'issuer_mismatch',
    );
    if (issuer !== idp.entityId)
      throw new SamlRefusal('issuer_mismatch', 'the assertion is not from the registered IdP');

    // Conditions (SAML core 2.5): the time window and every AudienceRestriction.
    const conditions = onlyChild(assertion, SAML_NS.assertion, 'Conditions', 'malformed');
    const notBefore = instantOf(conditions, 'NotBefore');
    const notOnOrAfter = instantOf(conditions, 'NotOnOrAfter');
    if (notBefore !== undefined && now + skew < notBefore.getTime()) {
      throw new SamlRefusal('not_yet_valid', 'the assertion is not valid yet (Conditions NotBefore)');
    }
    if (notOnOrAfter !== undefined && now - skew >= notOnOrAfter.getTime()) {
      throw new SamlRefusal('expired', 'the assertion has expired (Conditions NotOnOrAfter)');
    }
    const restrictions = childElements(conditions, SAML_NS.assertion, 'AudienceRestriction');
    if (restrictions.length === 0)
      throw new SamlRefusal('audience_mismatch', 'the assertion has no AudienceRestriction');
    for (const restriction of restrictions) {
      const audiences = childElements(restriction, SAML_NS.assertion, 'Audience').map((a) =>
        textOf(a, 'audience_mismatch'),
      );
      if (!audiences.includes(expect.audience)) {
        throw new SamlRefusal(
          'audience_mismatch',
          'an AudienceRestriction does not name this service provider',
        );
      }
    }

    // The subject, and a bearer confirmation meant for us (SAML profiles 4.1.4.2, RFC 7522 3).
    const subject = onlyChild(assertion, SAML_NS.assertion, 'Subject', 'subject_invalid');
    const nameIdElement = onlyChild(subject, SAML_NS.assertion, 'NameID', 'subject_invalid');
    const nameId = textOf(nameIdElement, 'subject_invalid');
    const nameIdFormat = nameIdElement.getAttribute('Format') || null;
    if (nameId === '' || nameId.length > MAX_NAME_ID_LENGTH) {
      throw new SamlRefusal('subject_invalid', `the NameID must be 1 to ${MAX_NAME_ID_LENGTH} characters`);
    }
    if (nameIdFormat === TRANSIENT) {
      throw new SamlRefusal(
        'subject_invalid',
        'a transient NameID names nobody twice: a persistent or email NameID is needed',
      );
    }
    const confirmedUntil = this.confirmation(subject, expect, now, skew);

    if (
      profile.authnStatement &&
      childElements(assertion, SAML_NS.assertion, 'AuthnStatement').length === 0
    ) {
      throw new SamlRefusal('malformed', 'a sign-in assertion must hold an AuthnStatement');
    }
    const until = Math.min(confirmedUntil, notOnOrAfter?.getTime() ?? Infinity);
    return {
      id,
      issuer,
      nameId,
      nameIdFormat,
      attributes: attributesOf(assertion),
      rememberUntil: new Date(until + skew),
    };
  }

  /**
   * The bearer SubjectConfirmation whose data holds for us; its NotOnOrAfter. The refusal, when
   * none does, is the first confirmation's (the one an IdP sends).
   */
  private confirmation(subject: Element, expect: SamlExpectations, now: number, skew: number): number {
    const bearers = childElements(subject, SAML_NS.assertion, 'SubjectConfirmation').filter(
      (confirmation) => confirmation.getAttribute('Method') === BEARER,
    );
    if (bearers.length === 0)
      throw new SamlRefusal('subject_invalid', 'the assertion has no bearer SubjectConfirmation');
    let first: SamlRefusal | undefined;
    for (const bearer of bearers) {
      const data = childElements(bearer, SAML_NS.assertion, 'SubjectConfirmationData');
      const problem =
        data.length !== 1
          ? new SamlRefusal('subject_invalid', 'a bearer confirmation needs one SubjectConfirmationData')
          : confirmationProblem(data[0], expect, now, skew);
      if (problem === undefined) return (instantOf(data[0], 'NotOnOrAfter') as Date).getTime();
      first ??= problem;
    }
    throw first as SamlRefusal;
  }
}

function confirmationProblem(
  data: Element,
  expect: SamlExpectations,
  now: number,
  skew: number,
): SamlRefusal | undefined {
  if (data.getAttribute('Recipient') !== expect.recipient) {
    return new SamlRefusal(
      'recipient_mismatch',
      'the SubjectConfirmationData Recipient is not this endpoint',
    );
  }
  const notOnOrAfter = instantOf(data, 'NotOnOrAfter');
  if (notOnOrAfter === undefined)
    return new SamlRefusal('subject_invalid', 'the SubjectConfirmationData has no NotOnOrAfter');
  if (now - skew >= notOnOrAfter.getTime()) {
    return new SamlRefusal('expired', 'the assertion has expired (SubjectConfirmationData NotOnOrAfter)');
  }
  const notBefore = instantOf(data, 'NotBefore');
  if (notBefore !== undefined && now + skew < notBefore.getTime()) {
    return new SamlRefusal(
      'not_yet_valid',
      'the assertion is not valid yet (SubjectConfirmationData NotBefore)',
    );
  }
  if (expect.inResponseTo !== undefined) {
    const answered = data.getAttribute('InResponseTo') || null;
    if (answered === null)
      return new SamlRefusal(
        'unsolicited',
        'the assertion answers no request of ours (IdP-initiated sign-in is not taken)',
      );
    if (answered !== expect.inResponseTo) {
      return new SamlRefusal(
        'in_response_to_mismatch',
        'the assertion answers another request than this browser’s',
      );
    }
  }
  return undefined;
}

/** The Response's own attributes and status (the assertion inside is judged on its signed XML). */
function checkResponse(
  response: Element,
  idp: SamlIdentityProvider,
  expect: { inResponseTo: string | null; destination: string },
): void {
  if (response.getAttribute('Version') !== '2.0')
    throw new SamlRefusal('malformed', 'the Response is not SAML 2.0');
  const destination = response.getAttribute('Destination') || null;
  const signed = childElements(response, SAML_NS.dsig, 'Signature').length > 0;
  // SAML bindings 3.5.5.2: a signed message names where it was sent.
  if ((destination === null && signed) || (destination !== null && destination !== expect.destination)) {
    throw new SamlRefusal('destination_mismatch', 'the Response Destination is not this ACS');
  }
  const issuers = childElements(response, SAML_NS.assertion, 'Issuer');
  if (
    issuers.length > 1 ||
    (issuers.length === 1 && textOf(issuers[0], 'issuer_mismatch') !== idp.entityId)
  ) {
    throw new SamlRefusal('issuer_mismatch', 'the Response is not from the registered IdP');
  }
  const answered = response.getAttribute('InResponseTo') || null;
  if (answered !== null && answered !== expect.inResponseTo) {
    throw new SamlRefusal(
      'in_response_to_mismatch',
      'the Response answers another request than this browser’s',
    );
  }
  const status = onlyChild(response, SAML_NS.protocol, 'Status', 'malformed');
  const code = onlyChild(status, SAML_NS.protocol, 'StatusCode', 'malformed').getAttribute('Value');
  if (code !== SUCCESS)
    throw new SamlRefusal('status_not_success', `the IdP answered ${code ?? 'no status'}`);
}

function attributesOf(assertion: Element): Record<string, string[]> {
  const attributes: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const statement of childElements(assertion, SAML_NS.assertion, 'AttributeStatement')) {
    for (const attribute of childElements(statement, SAML_NS.assertion, 'Attribute')) {
      const name = attribute.getAttribute('Name');
      if (!name) continue;
      const values = childElements(attribute, SAML_NS.assertion, 'AttributeValue').flatMap((value) => {
        if (childElements(value).length > 0) return [];
        const text = textOf(value, 'malformed');
        return text === '' ? [] : [text];
      });
      attributes[name] = [...(attributes[name] ?? []), ...values];
    }
  }
  return attributes;
}

/** node-saml's failures as our codes (its messages may quote the document: they are not kept). */
function refusalOf(error: unknown, responseHasSignature: boolean): SamlRefusal {
  if (error instanceof SamlRefusal) return error;
  if (error instanceof SamlStatusError)
    return new SamlRefusal('status_not_success', 'the IdP did not answer Success');
  const message = error instanceof Error ? error.message : '';
  const code: SamlRefusalCode = message.startsWith('Invalid document signature')
    ? responseHasSignature
      ? 'signature_invalid'
      : 'response_unsigned'
    : /audience/i.test(message)
      ? 'audience_mismatch'
      : /Missing SAML assertion|multiple conditions|Not a valid XML/.test(message)
        ? 'malformed'
        : 'signature_invalid';
  const reasons: Record<string, string> = {
    response_unsigned: 'the Response is not signed by the IdP, and its registration requires it',
    audience_mismatch: 'the assertion does not name this service provider',
    malformed: 'the document is not a usable SAML response',
    signature_invalid: 'no valid signature of the registered IdP covers the assertion',
  };
  return new SamlRefusal(code, reasons[code]);
}
