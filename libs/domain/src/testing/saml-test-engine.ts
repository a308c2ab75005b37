import { AuditLog } from '../audit/audit-log';
import { AuditTrail } from '../audit/audit-trail';
import { AssertionReplays } from '../clients/assertion-replays';
import { Saml2BearerGrant } from '../grants/saml2-bearer.grant';
import { TokenEndpoint } from '../grants/token-endpoint';
import { SamlAssertionValidator } from '../saml/saml-assertion-validator';
import { samlServiceProvider, type SamlIdentityProvider } from '../saml/saml-identity-provider';
import { SamlRegistry } from '../saml/saml-registry';
import { SamlSignIn } from '../saml/saml-sign-in';
import type { Stores, Transactor } from '../storage';
import { TEST_ISSUER, type TestEngine } from './in-memory-stores';
import {
  assertionXml,
  base64,
  base64url,
  idpMetadata,
  responseXml,
  signRoot,
  testSigningKey,
  type AssertionParts,
  type TestSigningKey,
} from './saml-test-idp';

export const TEST_TOKEN_ENDPOINT = `${TEST_ISSUER}/v1/oauth/token`;

/** SAML on a test engine: sign-in, registry and a token endpoint with the RFC 7522 grant, one replica's worth. */
export interface SamlTestEngine {
  signIn: SamlSignIn;
  registry: SamlRegistry;
  tokenEndpoint: TokenEndpoint;
  audit: AuditLog;
}

/** Another replica's SAML objects over the same stores (its own grouped inserts and caches). */
export function samlEngine<S extends Stores, T extends Transactor>(engine: TestEngine<S, T>): SamlTestEngine {
  const { stores, transactor, clock, accessTokens, authenticator, sessions } = engine;
  const trail = new AuditTrail(clock);
  const audit = new AuditLog(stores.audit, transactor, trail);
  const validator = new SamlAssertionValidator(clock);
  const replays = new AssertionReplays(stores.assertionReplays);
  return {
    signIn: new SamlSignIn(stores, validator, replays, sessions, audit, trail, TEST_ISSUER, clock),
    registry: new SamlRegistry(stores, transactor, trail, clock),
    tokenEndpoint: new TokenEndpoint(
      [
        new Saml2BearerGrant(
          stores.samlIdentityProviders,
          validator,
          replays,
          transactor,
          accessTokens,
          audit,
          trail,
          { tokenEndpoint: TEST_TOKEN_ENDPOINT },
          clock,
        ),
      ],
      authenticator,
    ),
    audit,
  };
}

/** A tenant's IdP for the specs: its key, entity id, and assertions and responses it signs. */
export class TestSamlIdp {
  readonly entityId: string;
  readonly key: TestSigningKey;

  constructor(
    readonly tenant: string,
    options: { key?: TestSigningKey; entityId?: string } = {},
  ) {
    this.entityId = options.entityId ?? `https://idp.${tenant}.example/saml`;
    this.key = options.key ?? testSigningKey(tenant);
  }

  metadata(certificates: string[] = [this.key.certificate]): string {
    return idpMetadata(this.entityId, `https://idp.${this.tenant}.example/sso`, certificates);
  }

  /** The registration a tenant admin would make (as the registry stores it). */
  registration(overrides: Partial<SamlIdentityProvider> = {}): SamlIdentityProvider {
    return {
      tenant: this.tenant,
      entityId: this.entityId,
      ssoUrl: `https://idp.${this.tenant}.example/sso`,
      certificates: [this.key.certificate],
      attributeMapping: { email: ['email'], name: ['displayName'], groups: ['groups'] },
      roleMapping: { admins: 'tenant_admin', readers: 'viewer' },
      wantResponseSigned: false,
      nameIdFormat: null,
      createdAt: new Date(0),
      updatedAt: new Date(0),
      ...overrides,
    };
  }

  /** A signed SAMLResponse (base64) answering `requestId` at the tenant's ACS. */
  response(requestId: string | undefined, parts: Partial<AssertionParts> = {}, now = new Date()): string {
    const sp = samlServiceProvider(TEST_ISSUER, this.tenant);
    const assertion = signRoot(
      assertionXml({
        issuer: this.entityId,
        nameId: 'ada',
        audience: sp.entityId,
        recipient: sp.acsUrl,
        inResponseTo: requestId,
        now,
        attributes: { email: ['ada@example.com'], displayName: ['Ada Lovelace'], groups: ['admins'] },
        ...parts,
      }),
      { key: this.key },
    );
    return base64(
      responseXml({ issuer: this.entityId, destination: sp.acsUrl, inResponseTo: requestId, assertion, now }),
    );
  }

  /** A signed assertion for the RFC 7522 grant (base64url). */
  bearerAssertion(parts: Partial<AssertionParts> = {}, now = new Date()): string {
    return base64url(
      signRoot(
        assertionXml({
          issuer: this.entityId,
          nameId: 'ada',
          audience: TEST_TOKEN_ENDPOINT,
          recipient: TEST_TOKEN_ENDPOINT,
          now,
          authnStatement: false,
          attributes: { email: ['ada@example.com'], displayName: ['Ada Lovelace'] },
          ...parts,
        }),
        { key: this.key },
      ),
    );
  }
}
