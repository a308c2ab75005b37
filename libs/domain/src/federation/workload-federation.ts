import type { InsertResult } from '../storage';

/** A tenant's trust in an outside token issuer (a Kubernetes cluster, a CI system). */
export interface FederatedIssuer {
  id: string;
  /** The tenant that registered it; its rules map to that tenant's apps only. */
  tenant: string;
  /** The exact `iss` of the tokens it issues. */
  issuer: string;
  /** Where its keys are; null: found by OpenID Connect discovery at `<issuer>/.well-known/openid-configuration`. */
  jwksUri: string | null;
  rules: FederationRule[];
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Which of the issuer's tokens get a platform token, for which app and scopes. Every condition
 * must hold: the token's `aud` holds `audience`, its `sub` is `subject` when one is given, and
 * every claim of `claims` is exactly that string.
 */
export interface FederationRule {
  /** Unique within the issuer: the audit record names it. */
  name: string;
  audience: string;
  subject?: string;
  /**
   * Claim conditions: a top-level claim by name (`repository`, `ref`), or a nested one by JSON
   * Pointer (RFC 6901: `/kubernetes.io/namespace`, `/kubernetes.io/serviceaccount/name`).
   */
  claims: Record<string, string>;
  /** The app the token is issued to: an app bound to the issuer's tenant. */
  clientId: string;
  /** What the platform token may carry: among the app's declared scopes. */
  scopes: string[];
}

/** What a verified workload token was mapped to: carried to the grant, named by the audit record. */
export interface FederatedWorkload {
  issuerId: string;
  issuer: string;
  subject: string;
  rule: string;
  scopes: string[];
  /** The workload token's own `exp`, seconds: the platform token lives no longer. */
  expiresAt: number;
}

export interface FederatedIssuerStore {
  /** 'duplicate' when the tenant already trusts this issuer. */
  insertFederatedIssuer(issuer: FederatedIssuer): Promise<InsertResult>;
  findFederatedIssuer(tenant: string, id: string): Promise<FederatedIssuer | null>;
  /** The tenant's issuers, ordered by issuer. */
  listFederatedIssuers(tenant: string): Promise<FederatedIssuer[]>;
  /** Every tenant's registration of the issuer `iss` (by an index). */
  findFederatedIssuersByIssuer(issuer: string): Promise<FederatedIssuer[]>;
  /** Replaces `jwksUri`, `rules` and `updatedAt`; false when there was no such issuer. */
  updateFederatedIssuer(issuer: FederatedIssuer): Promise<boolean>;
  deleteFederatedIssuer(tenant: string, id: string): Promise<boolean>;
}

/** The value at a rule's claim path: a claim name, or a JSON Pointer into the claims. */
export function claimAt(claims: Record<string, unknown>, path: string): unknown {
  if (!path.startsWith('/')) return Object.hasOwn(claims, path) ? claims[path] : undefined;
  let value: unknown = claims;
  for (const raw of path.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key)) {
      return undefined;
    }
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Whether a verified token's claims meet the rule (its issuer already matched). */
export function ruleMatches(rule: FederationRule, claims: Record<string, unknown>): boolean {
  const aud = claims.aud;
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (!audiences.includes(rule.audience)) return false;
  if (rule.subject !== undefined && claims.sub !== rule.subject) return false;
  return Object.entries(rule.claims).every(([path, expected]) => claimAt(claims, path) === expected);
}
