import { randomBytes } from 'node:crypto';
import { SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import type { AuditLog } from '../audit/audit-log';
import type { AuditEventInput } from '../audit/audit-record';
import { PLATFORM_ACTOR, type AuditTrail } from '../audit/audit-trail';
import { assertionKey, type AssertionReplays } from '../clients/assertion-replays';
import type { Clock } from '../clock';
import { DomainError } from '../errors';
import { TENANT_PATTERN } from '../registry/application';
import type { CreatedSession, SessionService } from '../sessions/session.service';
import type { Stores } from '../storage';
import type { SamlAssertionValidator, VerifiedAssertion } from './saml-assertion-validator';
import { userFromAssertion } from './saml-attributes';
import { SamlRefusal } from './saml-document';
import {
  SAML_REQUEST_TTL_SECONDS,
  samlServiceProvider,
  type SamlIdentityProvider,
} from './saml-identity-provider';

/** A sign-in on its way to the IdP: where to send the browser, and the request it carries. */
export interface SamlLoginStart {
  redirectUrl: string;
  /** The AuthnRequest's ID: kept by the browser (sealed), matched with `InResponseTo` at the ACS. */
  requestId: string;
}

/** Words the browser's error page shows for each refusal (no detail an attacker could use). */
const PAGE_TEXT = 'Your identity provider’s answer could not be accepted. Please start the sign-in again.';

/** The key one SAML assertion is remembered by: its IdP within the tenant, and its ID. */
export function samlAssertionKey(tenant: string, entityId: string, assertionId: string): string {
  return assertionKey('saml_assertion', `${tenant}\0${entityId}`, assertionId);
}

/** The audit record of a refusal: its reason code and the IdP, never the assertion's content. */
export function samlRefusalRecord(
  trail: AuditTrail,
  idp: Pick<SamlIdentityProvider, 'tenant' | 'entityId'>,
  action: string,
  refusal: SamlRefusal,
  attributes: Record<string, string> = {},
): AuditEventInput {
  return trail.record({
    actor: PLATFORM_ACTOR,
    action,
    target: idp.entityId,
    tenant: idp.tenant,
    outcome: 'denied',
    attributes: { reason: refusal.code, idp: idp.entityId, ...attributes },
  });
}

/**
 * SAML 2.0 Web Browser SSO for a tenant (docs/saml.md), SP-initiated: the AuthnRequest leaves
 * over HTTP-Redirect (node-saml builds it; its ID is stored, single use, for
 * `SAML_REQUEST_TTL_SECONDS`), the Response comes back over HTTP-POST to the tenant's ACS, is
 * validated (`SamlAssertionValidator`), its assertion used once (the `assertion_uses` table every
 * replica shares), its request consumed, and the user it names signed in through the same session
 * service as the OpenID Connect login. Every sign-in is audited (`user.login`, `method: saml`),
 * every refusal too (`saml.login_refused` with its reason code, never the assertion's content).
 */
export class SamlSignIn {
  constructor(
    private readonly stores: Pick<Stores, 'samlIdentityProviders' | 'samlRequests'>,
    private readonly validator: SamlAssertionValidator,
    private readonly replays: AssertionReplays,
    private readonly sessions: Pick<SessionService, 'open'>,
    private readonly audit: Pick<AuditLog, 'append'>,
    private readonly trail: AuditTrail,
    private readonly issuer: string,
    private readonly clock: Clock,
  ) {}

  async start(tenant: string): Promise<SamlLoginStart> {
    const idp = await this.identityProvider(tenant);
    const sp = samlServiceProvider(this.issuer, tenant);
    // xs:ID: a letter or underscore first.
    const requestId = `_${randomBytes(20).toString('hex')}`;
    const saml = new SAML({
      entryPoint: idp.ssoUrl,
      issuer: sp.entityId,
      callbackUrl: sp.acsUrl,
      idpCert: idp.certificates,
      identifierFormat: idp.nameIdFormat,
      disableRequestedAuthnContext: true,
      authnRequestBinding: 'HTTP-Redirect',
      validateInResponseTo: ValidateInResponseTo.never, // the request is stored here, below
      generateUniqueId: () => requestId,
    });
    const redirectUrl = await saml.getAuthorizeUrlAsync('', undefined, {});
    const now = this.clock.now();
    await this.stores.samlRequests.insertSamlRequest({
      id: requestId,
      tenant,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SAML_REQUEST_TTL_SECONDS * 1000),
    });
    return { redirectUrl, requestId };
  }

  /**
   * The ACS: `requestId` is the request this browser left with (null when it came back without
   * one). A refusal is `validation_failed` (the 400 page) with its code, audited.
   */
  async finish(tenant: string, samlResponse: string, requestId: string | null): Promise<CreatedSession> {
    const idp = await this.identityProvider(tenant);
    const sp = samlServiceProvider(this.issuer, tenant);
    let assertion: VerifiedAssertion;
    try {
      assertion = await this.validator.validateResponse(samlResponse, idp, {
        audience: sp.entityId,
        recipient: sp.acsUrl,
        destination: sp.acsUrl,
        inResponseTo: requestId,
      });
      const first = await this.replays.firstUse(
        samlAssertionKey(tenant, idp.entityId, assertion.id),
        assertion.rememberUntil,
      );
      if (!first) throw new SamlRefusal('replayed', 'the assertion was used before');
      const now = this.clock.now();
      if (
        requestId === null ||
        !(await this.stores.samlRequests.consumeSamlRequest(requestId, tenant, now))
      ) {
        throw new SamlRefusal('in_response_to_mismatch', 'the request was answered before, or expired');
      }
    } catch (error) {
      if (error instanceof SamlRefusal) throw await this.refused(idp, error);
      throw error;
    }
    return this.sessions.open(userFromAssertion(idp, assertion), { method: 'saml', idp: idp.entityId });
  }

  private async identityProvider(tenant: string): Promise<SamlIdentityProvider> {
    const idp = TENANT_PATTERN.test(tenant)
      ? await this.stores.samlIdentityProviders.findSamlIdentityProvider(tenant)
      : null;
    if (idp === null) throw new DomainError('not_found', 'This organisation has no SAML sign-in configured.');
    return idp;
  }

  private async refused(idp: SamlIdentityProvider, refusal: SamlRefusal): Promise<DomainError> {
    await this.audit.append(samlRefusalRecord(this.trail, idp, 'saml.login_refused', refusal));
    return new DomainError('validation_failed', `${PAGE_TEXT} (${refusal.code})`);
  }
}
