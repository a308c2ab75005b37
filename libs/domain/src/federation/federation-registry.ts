import { randomBytes } from 'node:crypto';
import { auditActorOf, type AuditTrail } from '../audit/audit-trail';
import type { Clock } from '../clock';
import { conflict, notFound, validationFailed } from '../errors';
import { TENANT_PATTERN } from '../registry/application';
import { uncoveredScopes } from '../scopes';
import type { Stores, Transactor } from '../storage';
import { type ActingPrincipal, assertReachesTenant } from '../users/user-administration';
import { checkWebhookUrl, type WebhookUrlPolicy } from '../webhooks/webhook-url-policy';
import type { FederatedIssuer, FederationRule } from './workload-federation';

/** Bounds of a registration: what an index holds and what a token request reads through. */
export const FEDERATION_LIMITS = {
  issuerLength: 512,
  rules: 50,
  claimConditions: 20,
  valueLength: 512,
  claimPathLength: 256,
} as const;

const RULE_NAME = /^[A-Za-z0-9._-]{1,64}$/;
/** Claims a rule cannot compare: their checks are the verifier's own (`aud` and `sub` have fields). */
const RESERVED_CLAIMS = new Set(['iss', 'aud', 'sub', 'exp', 'nbf', 'iat', 'jti']);

export interface FederatedIssuerInput {
  issuer: string;
  /** Omitted or null: OpenID Connect discovery finds it. */
  jwksUri?: string | null;
  rules: FederationRule[];
}

/**
 * The trusted issuers of a tenant and their rules (docs/workload-identity.md): registered,
 * changed and removed by an administrator of the tenant (`federation.write`, decided at the edge
 * by the one decision; here the caller must still reach the tenant), each change audited
 * (`federation.issuer_registered`, `_updated`, `_deleted`) in its transaction. A rule maps to a
 * `service` app bound to the tenant, with scopes among those it declares, and names a subject
 * or at least one claim: an audience alone would admit every token the issuer mints for it
 * (anyone can ask a CI issuer for any audience).
 */
export class FederationRegistry {
  constructor(
    private readonly stores: Pick<Stores, 'federatedIssuers' | 'applications'>,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    /** Where an issuer and its keys may be: the webhooks' rules (https and public addresses in production). */
    private readonly urls: WebhookUrlPolicy,
    private readonly clock: Clock,
  ) {}

  async register(
    principal: ActingPrincipal,
    tenant: string,
    input: FederatedIssuerInput,
  ): Promise<FederatedIssuer> {
    checkTenant(principal, tenant);
    const now = this.clock.now();
    const issuer: FederatedIssuer = {
      id: `fi_${randomBytes(12).toString('base64url')}`,
      tenant,
      ...(await this.checked(tenant, input)),
      createdAt: now,
      updatedAt: now,
    };
    await this.transactor.inTransaction(async (stores) => {
      if ((await stores.federatedIssuers.insertFederatedIssuer(issuer)) === 'duplicate') {
        throw conflict(`the tenant already trusts the issuer ${issuer.issuer}`);
      }
      await stores.audit.appendAuditRecords([this.audit(principal, 'federation.issuer_registered', issuer)]);
    });
    return issuer;
  }

  list(principal: ActingPrincipal, tenant: string): Promise<FederatedIssuer[]> {
    checkTenant(principal, tenant);
    return this.stores.federatedIssuers.listFederatedIssuers(tenant);
  }

  async get(principal: ActingPrincipal, tenant: string, id: string): Promise<FederatedIssuer> {
    checkTenant(principal, tenant);
    const issuer = await this.stores.federatedIssuers.findFederatedIssuer(tenant, id);
    if (!issuer) throw notFound('federated issuer');
    return issuer;
  }

  /** Replaces the key location and the rules; the issuer itself stays (register another for another). */
  async update(
    principal: ActingPrincipal,
    tenant: string,
    id: string,
    input: Omit<FederatedIssuerInput, 'issuer'>,
  ): Promise<FederatedIssuer> {
    const existing = await this.get(principal, tenant, id);
    const checked = await this.checked(tenant, { ...input, issuer: existing.issuer });
    const updated: FederatedIssuer = { ...existing, ...checked, updatedAt: this.clock.now() };
    await this.transactor.inTransaction(async (stores) => {
      if (!(await stores.federatedIssuers.updateFederatedIssuer(updated))) throw notFound('federated issuer');
      await stores.audit.appendAuditRecords([this.audit(principal, 'federation.issuer_updated', updated)]);
    });
    return updated;
  }

  async delete(principal: ActingPrincipal, tenant: string, id: string): Promise<void> {
    const existing = await this.get(principal, tenant, id);
    await this.transactor.inTransaction(async (stores) => {
      if (!(await stores.federatedIssuers.deleteFederatedIssuer(tenant, id)))
        throw notFound('federated issuer');
      await stores.audit.appendAuditRecords([this.audit(principal, 'federation.issuer_deleted', existing)]);
    });
  }

  private audit(principal: ActingPrincipal, action: string, issuer: FederatedIssuer) {
    return this.trail.record({
      actor: auditActorOf(principal),
      action,
      target: issuer.id,
      tenant: issuer.tenant,
      attributes: {
        issuer: issuer.issuer,
        jwks_uri: issuer.jwksUri,
        rules: issuer.rules.map((rule) => `${rule.name}->${rule.clientId}`).join(' '),
      },
    });
  }

  private async checked(
    tenant: string,
    input: FederatedIssuerInput,
  ): Promise<Pick<FederatedIssuer, 'issuer' | 'jwksUri' | 'rules'>> {
    if (input.issuer.length > FEDERATION_LIMITS.issuerLength) {
      throw validationFailed(`issuer must be at most ${FEDERATION_LIMITS.issuerLength} characters`);
    }
    const issuerUrl = checkWebhookUrl(input.issuer, this.urls);
    if (issuerUrl.search !== '') throw validationFailed('issuer must not have a query');
    const jwksUri = input.jwksUri ?? null;
    if (jwksUri !== null) checkWebhookUrl(jwksUri, this.urls);
    if (input.rules.length === 0 || input.rules.length > FEDERATION_LIMITS.rules) {
      throw validationFailed(`rules must hold 1 to ${FEDERATION_LIMITS.rules} rules`);
    }
    const names = new Set<string>();
    const rules: FederationRule[] = [];
    for (const rule of input.rules) {
      if (!RULE_NAME.test(rule.name))
        throw validationFailed('a rule name must be 1 to 64 of A-Z a-z 0-9 . _ -');
      if (names.has(rule.name)) throw validationFailed(`two rules are named ${rule.name}`);
      names.add(rule.name);
      rules.push(await this.checkedRule(tenant, rule));
    }
    return { issuer: input.issuer, jwksUri, rules };
  }

  private async checkedRule(tenant: string, rule: FederationRule): Promise<FederationRule> {
    const where = `rule ${rule.name}`;
    const text = (value: string, what: string) => {
      if (value.length === 0 || value.length > FEDERATION_LIMITS.valueLength) {
        throw validationFailed(`${where}: ${what} must be 1 to ${FEDERATION_LIMITS.valueLength} characters`);
      }
    };
    text(rule.audience, 'audience');
    if (rule.subject !== undefined) text(rule.subject, 'subject');
    const conditions = Object.entries(rule.claims);
    if (conditions.length > FEDERATION_LIMITS.claimConditions) {
      throw validationFailed(`${where}: at most ${FEDERATION_LIMITS.claimConditions} claim conditions`);
    }
    for (const [path, value] of conditions) {
      if (path.length === 0 || path.length > FEDERATION_LIMITS.claimPathLength || RESERVED_CLAIMS.has(path)) {
        throw validationFailed(`${where}: the claim ${JSON.stringify(path)} cannot be a condition`);
      }
      if (typeof value !== 'string') throw validationFailed(`${where}: claim values must be strings`);
      text(value, `the value of ${path}`);
    }
    if (rule.subject === undefined && conditions.length === 0) {
      throw validationFailed(`${where}: name a subject or at least one claim, not the audience alone`);
    }
    const app = await this.stores.applications.findApplication(rule.clientId);
    if (!app || app.appType !== 'service' || app.tenant !== tenant) {
      throw validationFailed(`${where}: client_id must be a service app bound to the tenant ${tenant}`);
    }
    const beyond = uncoveredScopes(app.declaredScopes, rule.scopes);
    if (beyond.length > 0) {
      throw validationFailed(`${where}: scopes the app does not declare: ${beyond.join(' ')}`);
    }
    return {
      name: rule.name,
      audience: rule.audience,
      ...(rule.subject !== undefined && { subject: rule.subject }),
      claims: Object.fromEntries(conditions),
      clientId: rule.clientId,
      scopes: [...new Set(rule.scopes)],
    };
  }
}

function checkTenant(principal: ActingPrincipal, tenant: string): void {
  if (!TENANT_PATTERN.test(tenant)) throw validationFailed('tenant must be 1 to 64 of A-Z a-z 0-9 . _ -');
  assertReachesTenant(principal, tenant);
}
