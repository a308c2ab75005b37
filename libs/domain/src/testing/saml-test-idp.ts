import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignedXml } from 'xml-crypto';

/**
 * A SAML identity provider for tests (test-only signing, never the platform's): an RSA key with
 * a self-signed certificate made by openssl, assertions and responses built from parts and
 * signed by xml-crypto, the IdP's metadata, and the signature-wrapping variants of a signed
 * response (XSW1-XSW8). Used by the unit specs, the medium specs and the e2e attack corpus.
 */

export const SAML = {
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  bearer: 'urn:oasis:names:tc:SAML:2.0:cm:bearer',
  success: 'urn:oasis:names:tc:SAML:2.0:status:Success',
  persistent: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  sha256: {
    signature: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    digest: 'http://www.w3.org/2001/04/xmlenc#sha256',
  },
  sha1: {
    signature: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
    digest: 'http://www.w3.org/2000/09/xmldsig#sha1',
  },
} as const;

export interface TestSigningKey {
  privateKeyPem: string;
  certificatePem: string;
  /** The certificate as metadata carries it: base64 DER. */
  certificate: string;
}

/** A fresh RSA-2048 key and a self-signed certificate for it (openssl, a few hundred ms). */
export function testSigningKey(commonName = 'test-idp'): TestSigningKey {
  const dir = mkdtempSync(join(tmpdir(), 'saml-key-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '30',
        '-subj',
        `/CN=${commonName}`,
      ],
      { stdio: 'ignore' },
    );
    const certificatePem = readFileSync(cert, 'utf8');
    return {
      privateKeyPem: readFileSync(key, 'utf8'),
      certificatePem,
      certificate: certificatePem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The IdP's metadata, with one KeyDescriptor per certificate (a rollover lists two). */
export function idpMetadata(entityId: string, ssoUrl: string, certificates: string[]): string {
  const keys = certificates
    .map(
      (c) =>
        `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${c}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`,
    )
    .join('');
  return (
    `<?xml version="1.0" encoding="UTF-8"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">` +
    `<md:IDPSSODescriptor protocolSupportEnumeration="${SAML.protocol}">${keys}` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>` +
    `</md:IDPSSODescriptor></md:EntityDescriptor>`
  );
}

export interface AssertionParts {
  issuer: string;
  nameId: string;
  nameIdFormat?: string;
  /** The Audience (SP entity id, or the token endpoint). */
  audience: string;
  /** The SubjectConfirmationData Recipient. */
  recipient: string;
  inResponseTo?: string;
  /** Defaults: now - 1 min to now + 5 min. */
  notBefore?: Date;
  notOnOrAfter?: Date;
  /** SubjectConfirmationData NotOnOrAfter; default: `notOnOrAfter`. */
  confirmationNotOnOrAfter?: Date;
  attributes?: Record<string, string[]>;
  id?: string;
  authnStatement?: boolean;
  now?: Date;
}

const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
export const samlId = () => `_${randomBytes(16).toString('hex')}`;

/** An unsigned assertion (`saml:` prefix declared on it). */
export function assertionXml(parts: AssertionParts): string {
  const now = parts.now ?? new Date();
  const notBefore = parts.notBefore ?? new Date(now.getTime() - 60_000);
  const notOnOrAfter = parts.notOnOrAfter ?? new Date(now.getTime() + 300_000);
  const confirmationEnd = parts.confirmationNotOnOrAfter ?? notOnOrAfter;
  const inResponseTo =
    parts.inResponseTo === undefined ? '' : ` InResponseTo="${escape(parts.inResponseTo)}"`;
  const attributes = Object.entries(parts.attributes ?? {})
    .map(
      ([name, values]) =>
        `<saml:Attribute Name="${escape(name)}">${values.map((v) => `<saml:AttributeValue>${escape(v)}</saml:AttributeValue>`).join('')}</saml:Attribute>`,
    )
    .join('');
  return (
    `<saml:Assertion xmlns:saml="${SAML.assertion}" ID="${parts.id ?? samlId()}" Version="2.0" IssueInstant="${iso(now)}">` +
    `<saml:Issuer>${escape(parts.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${parts.nameIdFormat ?? SAML.persistent}">${escape(parts.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="${SAML.bearer}"><saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${iso(confirmationEnd)}" Recipient="${escape(parts.recipient)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${escape(parts.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    (parts.authnStatement === false
      ? ''
      : `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="${samlId()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`) +
    (attributes === '' ? '' : `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>`) +
    `</saml:Assertion>`
  );
}

export interface SignOptions {
  key: Pick<TestSigningKey, 'privateKeyPem'>;
  algorithms?: { signature: string; digest: string };
}

/** Signs the document's root element (enveloped, exclusive c14n), the Signature after its Issuer. */
export function signRoot(xml: string, { key, algorithms = SAML.sha256 }: SignOptions): string {
  const root = xml.match(/^(?:<\?xml[^?]*\?>)?\s*<(?:\w+:)?(\w+)/)?.[1];
  const signer = new SignedXml({
    privateKey: key.privateKeyPem,
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    signatureAlgorithm: algorithms.signature,
  });
  signer.addReference({
    xpath: `/*[local-name(.)='${root}']`,
    digestAlgorithm: algorithms.digest,
    transforms: [
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/2001/10/xml-exc-c14n#',
    ],
  });
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: `/*[local-name(.)='${root}']/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return signer.getSignedXml();
}

export interface ResponseParts {
  issuer: string;
  destination?: string;
  inResponseTo?: string;
  /** The assertion XML (signed or not), placed as the Response's one assertion. */
  assertion: string;
  status?: string;
  id?: string;
  now?: Date;
}

/** A Response around an assertion (unsigned; `signRoot` signs it). */
export function responseXml(parts: ResponseParts): string {
  const now = parts.now ?? new Date();
  const destination = parts.destination === undefined ? '' : ` Destination="${escape(parts.destination)}"`;
  const inResponseTo =
    parts.inResponseTo === undefined ? '' : ` InResponseTo="${escape(parts.inResponseTo)}"`;
  return (
    `<samlp:Response xmlns:samlp="${SAML.protocol}" xmlns:saml="${SAML.assertion}" ID="${parts.id ?? samlId()}" Version="2.0" IssueInstant="${iso(now)}"${destination}${inResponseTo}>` +
    `<saml:Issuer>${escape(parts.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="${parts.status ?? SAML.success}"/></samlp:Status>` +
    parts.assertion.replace(/^<\?xml[^?]*\?>/, '') +
    `</samlp:Response>`
  );
}

export const base64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
export const base64url = (xml: string) => Buffer.from(xml, 'utf8').toString('base64url');

/** What the XSW variants are made of: a genuine signed response, and a forged assertion. */
export interface WrappingParts {
  /** The Response as the IdP signed it (its assertion signed too). */
  signedResponse: string;
  /** The genuine signed assertion alone. */
  signedAssertion: string;
  /** An unsigned assertion naming someone else (the attacker's choice). */
  evilAssertion: string;
  issuer: string;
  destination: string;
  inResponseTo: string;
}

const stripSignature = (xml: string) => xml.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, '');
const signatureOf = (xml: string) => xml.match(/<ds:Signature[\s\S]*?<\/ds:Signature>/)?.[0] ?? '';
const withId = (xml: string, id: string) => xml.replace(/ ID="[^"]*"/, ` ID="${id}"`);
const idOf = (xml: string) => xml.match(/ ID="([^"]*)"/)?.[1] ?? '';

export const XSW_VARIANTS = ['XSW1', 'XSW2', 'XSW3', 'XSW4', 'XSW5', 'XSW6', 'XSW7', 'XSW8'] as const;

/**
 * The eight XML Signature Wrapping attacks of Somorovsky et al. ("On Breaking SAML", 2012), each
 * hiding the genuine signed element where a careless verifier still finds it while the forged
 * assertion sits where a careless reader looks.
 */
export function signatureWrappingVariants(
  parts: WrappingParts,
): Record<(typeof XSW_VARIANTS)[number], string> {
  const { signedResponse, signedAssertion, evilAssertion } = parts;
  const responseOpen = (id: string) =>
    `<samlp:Response xmlns:samlp="${SAML.protocol}" xmlns:saml="${SAML.assertion}" ID="${id}" Version="2.0" IssueInstant="${iso(new Date())}" Destination="${parts.destination}" InResponseTo="${parts.inResponseTo}"><saml:Issuer>${parts.issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="${SAML.success}"/></samlp:Status>`;
  const responseSignature = signatureOf(signedResponse.replace(signedAssertion, ''));
  const originalResponse = signedResponse.replace(/^<\?xml[^?]*\?>/, '');
  const evilId = samlId();
  const assertionSignature = signatureOf(signedAssertion);
  const genuineId = idOf(signedAssertion);
  return {
    // 1: the signed Response moved into the forged Response's Signature (as an Object).
    XSW1: `${responseOpen(evilId)}${evilAssertion}${responseSignature.replace('</ds:Signature>', `<ds:Object>${stripSignature(originalResponse.replace(signatureOf(originalResponse), ''))}</ds:Object></ds:Signature>`)}</samlp:Response>`,
    // 2: the signed Response as a sibling before the forged Response's detached Signature.
    XSW2: `${responseOpen(evilId)}${originalResponse.replace(responseSignature, '')}${responseSignature}${evilAssertion}</samlp:Response>`,
    // 3: the forged assertion before the genuine signed one.
    XSW3: `${responseOpen(samlId())}${withId(evilAssertion, samlId())}${signedAssertion}</samlp:Response>`,
    // 4: the genuine signed assertion inside the forged one.
    XSW4: `${responseOpen(samlId())}${evilAssertion.replace('</saml:Assertion>', `${signedAssertion}</saml:Assertion>`)}</samlp:Response>`,
    // 5: the forged assertion carries the genuine signature; a copy of the genuine one follows, unsigned.
    XSW5: `${responseOpen(samlId())}${withId(evilAssertion, genuineId).replace('</saml:Issuer>', `</saml:Issuer>${assertionSignature}`)}${stripSignature(signedAssertion)}</samlp:Response>`,
    // 6: the forged assertion carries the genuine signature, the genuine assertion inside that signature.
    XSW6: `${responseOpen(samlId())}${withId(evilAssertion, genuineId).replace('</saml:Issuer>', `</saml:Issuer>${assertionSignature.replace('</ds:Signature>', `${stripSignature(signedAssertion)}</ds:Signature>`)}`)}</samlp:Response>`,
    // 7: the genuine assertion hidden in an Extensions element, the forged one where it is read.
    XSW7: `${responseOpen(samlId())}<samlp:Extensions>${signedAssertion}</samlp:Extensions>${evilAssertion}</samlp:Response>`,
    // 8: the forged assertion's Signature holds the genuine assertion, unsigned, in an Object.
    XSW8: `${responseOpen(samlId())}${withId(evilAssertion, genuineId).replace('</saml:Issuer>', `</saml:Issuer>${assertionSignature.replace('</ds:Signature>', `<ds:Object>${stripSignature(signedAssertion)}</ds:Object></ds:Signature>`)}`)}</samlp:Response>`,
  };
}
