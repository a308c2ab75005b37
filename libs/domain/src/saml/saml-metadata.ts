import { X509Certificate } from 'node:crypto';
import { generateServiceProviderMetadata } from '@node-saml/node-saml';
import { validationFailed } from '../errors';
import {
  checkSamlText,
  childElements,
  descendants,
  parseSamlXml,
  SAML_NS,
  SamlRefusal,
  textOf,
} from './saml-document';
import { SAML_LIMITS, SAML_MAX_METADATA_BYTES, type SamlServiceProvider } from './saml-identity-provider';

export const HTTP_REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const HTTP_POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/** What a tenant's registration takes from its IdP's metadata. */
export interface IdentityProviderMetadata {
  entityId: string;
  ssoUrl: string;
  /** base64 DER, in the document's order, without duplicates. */
  certificates: string[];
}

/**
 * Reads an IdP's SAML metadata (SAML metadata 2.0): the one `EntityDescriptor` (or the one
 * entity of an `EntitiesDescriptor`) with an `IDPSSODescriptor` supporting SAML 2.0, its
 * SingleSignOnService for the HTTP-Redirect binding, and its signing certificates (KeyDescriptor
 * `use="signing"` or without `use`: several during a key rollover). The metadata's own signature
 * is not relied on: the tenant administrator vouches for the document they upload.
 */
export function parseIdentityProviderMetadata(xml: string): IdentityProviderMetadata {
  let document: Document;
  try {
    checkSamlText(xml, SAML_MAX_METADATA_BYTES);
    document = parseSamlXml(xml);
  } catch (error) {
    if (error instanceof SamlRefusal) throw validationFailed(`metadata_xml: ${error.reason}`);
    throw error;
  }
  const entities = descendants(document.documentElement, SAML_NS.metadata, 'EntityDescriptor').filter(
    (entity) => idpDescriptorOf(entity) !== undefined,
  );
  if (entities.length !== 1) {
    throw validationFailed(
      `metadata_xml must describe exactly one identity provider (an EntityDescriptor with an IDPSSODescriptor for SAML 2.0), found ${entities.length}`,
    );
  }
  const entity = entities[0];
  const descriptor = idpDescriptorOf(entity) as Element;
  const entityId = entity.getAttribute('entityID') ?? '';
  if (entityId === '' || entityId.length > SAML_LIMITS.entityIdLength) {
    throw validationFailed(`metadata_xml: entityID must be 1 to ${SAML_LIMITS.entityIdLength} characters`);
  }
  const sso = childElements(descriptor, SAML_NS.metadata, 'SingleSignOnService').find(
    (service) => service.getAttribute('Binding') === HTTP_REDIRECT_BINDING,
  );
  const ssoUrl = sso?.getAttribute('Location') ?? '';
  if (ssoUrl === '') {
    throw validationFailed('metadata_xml: the IdP has no SingleSignOnService for the HTTP-Redirect binding');
  }
  checkUrl(ssoUrl, 'the SingleSignOnService Location');
  const certificates = signingCertificates(descriptor);
  if (certificates.length === 0) throw validationFailed('metadata_xml: the IdP has no signing certificate');
  if (certificates.length > SAML_LIMITS.certificates) {
    throw validationFailed(`metadata_xml: at most ${SAML_LIMITS.certificates} signing certificates`);
  }
  return { entityId, ssoUrl, certificates };
}

function idpDescriptorOf(entity: Element): Element | undefined {
  return childElements(entity, SAML_NS.metadata, 'IDPSSODescriptor').find((descriptor) =>
    (descriptor.getAttribute('protocolSupportEnumeration') ?? '').split(/\s+/).includes(SAML_NS.protocol),
  );
}

function signingCertificates(descriptor: Element): string[] {
  const found: string[] = [];
  for (const key of childElements(descriptor, SAML_NS.metadata, 'KeyDescriptor')) {
    const use = key.getAttribute('use');
    if (use !== null && use !== '' && use !== 'signing') continue;
    for (const element of descendants(key, SAML_NS.dsig, 'X509Certificate')) {
      const body = textOf(element, 'malformed').replace(/\s+/g, '');
      checkCertificate(body);
      if (!found.includes(body)) found.push(body);
    }
  }
  return found;
}

/** A certificate must parse and hold an RSA key of 2048 bits or more (the signatures we take are RSA). */
export function checkCertificate(base64Der: string): X509Certificate {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(Buffer.from(base64Der, 'base64'));
  } catch {
    throw validationFailed('metadata_xml: a signing certificate is not a valid X.509 certificate');
  }
  const key = certificate.publicKey;
  if (key.asymmetricKeyType !== 'rsa' || (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) {
    throw validationFailed('metadata_xml: a signing certificate must hold an RSA key of at least 2048 bits');
  }
  return certificate;
}

function checkUrl(value: string, what: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw validationFailed(`metadata_xml: ${what} is not a URL`);
  }
  if (value.length > SAML_LIMITS.urlLength || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw validationFailed(
      `metadata_xml: ${what} must be an http(s) URL of at most ${SAML_LIMITS.urlLength} characters`,
    );
  }
}

/**
 * The tenant's service provider metadata (node-saml's generator): our entity id, the
 * AssertionConsumerService for HTTP-POST, signed assertions wanted, unsigned requests.
 */
export function serviceProviderMetadata(sp: SamlServiceProvider): string {
  return generateServiceProviderMetadata({
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    wantAssertionsSigned: true,
    identifierFormat: null,
    decryptionCert: null,
    publicCerts: null,
    signMetadata: false,
    // A fixed ID: the document is the same at every request.
    generateUniqueId: () => '_platform-service-provider',
  });
}
