import { DOMParser } from '@xmldom/xmldom';

/**
 * Why a SAML document was refused: a stable code for the audit record, the log and the error
 * page (never the assertion's content: no NameID, no attribute value).
 */
export const SAML_REFUSAL_CODES = [
  'malformed',
  'too_large',
  'dtd_forbidden',
  'markup_forbidden',
  'encrypted_unsupported',
  'algorithm_forbidden',
  'signature_invalid',
  'response_unsigned',
  'status_not_success',
  'issuer_mismatch',
  'audience_mismatch',
  'recipient_mismatch',
  'destination_mismatch',
  'expired',
  'not_yet_valid',
  'unsolicited',
  'in_response_to_mismatch',
  'replayed',
  'subject_invalid',
  'unknown_identity_provider',
] as const;
export type SamlRefusalCode = (typeof SAML_REFUSAL_CODES)[number];

export class SamlRefusal extends Error {
  override readonly name = 'SamlRefusal';
  constructor(
    readonly code: SamlRefusalCode,
    /** What failed, in words that name no person (for the log). */
    readonly reason: string,
  ) {
    super(`${code}: ${reason}`);
  }
}

export const SAML_NS = {
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

/**
 * The signature algorithms taken (SAML 2.0 with XML Signature 1.1's recommendations): RSA with
 * SHA-256 or longer, SHA-256 or longer digests, exclusive canonicalization (SAML core 5.4.3) and
 * the enveloped-signature transform. SHA-1, inclusive canonicalization (whose output depends on
 * the ancestors'), XPath and XSLT transforms are refused before any signature is checked.
 */
export const SAML_SIGNATURE_ALGORITHMS: readonly string[] = [
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
];
export const SAML_DIGEST_ALGORITHMS: readonly string[] = [
  'http://www.w3.org/2001/04/xmlenc#sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512',
];
const EXCLUSIVE_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED_SIGNATURE = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const CANONICALIZATIONS: readonly string[] = [EXCLUSIVE_C14N];
const TRANSFORMS: readonly string[] = [ENVELOPED_SIGNATURE, EXCLUSIVE_C14N];

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const BASE64 = /^[A-Za-z0-9+/\-_\s]*={0,2}\s*$/;

/**
 * The XML of a base64 (or base64url) SAML message, refused before any parsing when it is
 * larger than `maxBytes`, not base64, or not UTF-8.
 */
export function decodeSamlMessage(encoded: string, maxBytes: number): string {
  // base64 of maxBytes is at most 4/3 as long, plus line breaks: refuse far larger at once.
  if (encoded.length > Math.ceil((maxBytes * 4) / 3) + 4096) {
    throw new SamlRefusal('too_large', 'the message is larger than the limit');
  }
  if (!BASE64.test(encoded)) throw new SamlRefusal('malformed', 'the message is not base64');
  const bytes = Buffer.from(encoded.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length > maxBytes) throw new SamlRefusal('too_large', 'the document is larger than the limit');
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new SamlRefusal('malformed', 'the document is not UTF-8');
  }
}

/**
 * Refusals on the text itself, before a parser sees it: a DTD (entity expansion, external
 * entities), and the markup a signature does not cover but a reader may split text on
 * (comments: `user@example.com<!---->.evil.com`; CDATA sections; processing instructions past
 * the XML declaration).
 */
export function checkSamlText(xml: string, maxBytes: number): void {
  if (Buffer.byteLength(xml, 'utf8') > maxBytes) {
    throw new SamlRefusal('too_large', 'the document is larger than the limit');
  }
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SamlRefusal('dtd_forbidden', 'the document has a DTD');
  if (xml.includes('<!--')) throw new SamlRefusal('markup_forbidden', 'the document has a comment');
  if (xml.includes('<![CDATA['))
    throw new SamlRefusal('markup_forbidden', 'the document has a CDATA section');
  const body = xml.replace(/^\uFEFF?\s*<\?xml\s[^?]*\?>/, '');
  if (body.includes('<?'))
    throw new SamlRefusal('markup_forbidden', 'the document has a processing instruction');
}

/** A strict parse: any error or warning of the parser refuses the document. */
export function parseSamlXml(xml: string): Document {
  let problem: string | undefined;
  const fail = (message: string) => {
    problem ??= message;
  };
  const document = new DOMParser({
    locator: {},
    errorHandler: { warning: fail, error: fail, fatalError: fail },
  }).parseFromString(xml, 'text/xml');
  if (problem !== undefined || !document?.documentElement) {
    throw new SamlRefusal('malformed', 'the document is not well-formed XML');
  }
  return document;
}

/** The element children of `parent` (direct children only), optionally of one namespace and name. */
export function childElements(parent: Node, namespace?: string, localName?: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType !== 1) continue;
    const element = node as Element;
    if (namespace !== undefined && element.namespaceURI !== namespace) continue;
    if (localName !== undefined && element.localName !== localName) continue;
    found.push(element);
  }
  return found;
}

/** Every element below `root` (itself included) of that namespace and name, in document order. */
export function descendants(root: Element, namespace: string, localName: string): Element[] {
  const found: Element[] = [];
  const walk = (element: Element) => {
    if (element.namespaceURI === namespace && element.localName === localName) found.push(element);
    for (const child of childElements(element)) walk(child);
  };
  walk(root);
  return found;
}

/** The one child element of that name, or a refusal when there is none or several. */
export function onlyChild(
  parent: Element,
  namespace: string,
  localName: string,
  code: SamlRefusalCode,
): Element {
  const children = childElements(parent, namespace, localName);
  if (children.length !== 1) {
    throw new SamlRefusal(code, `expected exactly one ${localName}, found ${children.length}`);
  }
  return children[0];
}

/**
 * The text of an element holding text only: a child element refuses it (comments and CDATA
 * never reach here: `checkSamlText`).
 */
export function textOf(element: Element, code: SamlRefusalCode): string {
  let text = '';
  for (let node = element.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === 3) text += node.nodeValue ?? '';
    else throw new SamlRefusal(code, `${element.localName} holds more than text`);
  }
  return text.trim();
}

/** The encrypted forms SAML allows; this platform refuses them (docs/saml.md, "Encrypted assertions"). */
const ENCRYPTED = ['EncryptedAssertion', 'EncryptedID', 'EncryptedAttribute'];

/**
 * Document-wide refusals: an encrypted element, and any signature using an algorithm outside
 * the allow-list (whichever element it signs, checked before node-saml verifies one).
 */
export function checkSamlDocument(document: Document): void {
  const root = document.documentElement;
  for (const name of ENCRYPTED) {
    if (descendants(root, SAML_NS.assertion, name).length > 0) {
      throw new SamlRefusal(
        'encrypted_unsupported',
        `${name} is not supported: ask the IdP to sign without encrypting`,
      );
    }
  }
  for (const signature of descendants(root, SAML_NS.dsig, 'Signature')) checkSignatureAlgorithms(signature);
}

function checkSignatureAlgorithms(signature: Element): void {
  const signedInfo = onlyChild(signature, SAML_NS.dsig, 'SignedInfo', 'signature_invalid');
  const algorithm = (parent: Element, name: string) =>
    onlyChild(parent, SAML_NS.dsig, name, 'signature_invalid').getAttribute('Algorithm') ?? '';
  const refuse = (what: string, value: string) => {
    throw new SamlRefusal('algorithm_forbidden', `${what} ${value || '(none)'} is not allowed`);
  };
  const c14n = algorithm(signedInfo, 'CanonicalizationMethod');
  if (!CANONICALIZATIONS.includes(c14n)) refuse('canonicalization', c14n);
  const method = algorithm(signedInfo, 'SignatureMethod');
  if (!SAML_SIGNATURE_ALGORITHMS.includes(method)) refuse('signature method', method);
  for (const reference of childElements(signedInfo, SAML_NS.dsig, 'Reference')) {
    const digest = algorithm(reference, 'DigestMethod');
    if (!SAML_DIGEST_ALGORITHMS.includes(digest)) refuse('digest', digest);
    for (const transforms of childElements(reference, SAML_NS.dsig, 'Transforms')) {
      for (const transform of childElements(transforms)) {
        const value = transform.getAttribute('Algorithm') ?? '';
        if (!TRANSFORMS.includes(value)) refuse('transform', value);
      }
    }
  }
}

/** An `xs:dateTime` attribute as a time; a malformed one refuses the document. */
export function instantOf(element: Element, attribute: string): Date | undefined {
  const value = element.getAttribute(attribute);
  if (value === null || value === '') return undefined;
  // SAML core 1.3.3: UTC, with or without fractional seconds.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value)) {
    throw new SamlRefusal('malformed', `${attribute} is not a UTC time`);
  }
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw new SamlRefusal('malformed', `${attribute} is not a time`);
  return time;
}
