import { hash } from 'node:crypto';
import { decodeJwt, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { AuthenticatedClient } from '../clients/client-authenticator';
import { ASSERTION_CLOCK_SKEW_SECONDS, ASSERTION_SIGNING_ALGS } from '../clients/client-assertion';
import { assertionKey, type AssertionReplays } from '../clients/assertion-replays';
import type { KeySetCache, KeySetFetch } from '../clients/key-sets';
import type { Clock } from '../clock';
import { invalidGrant, OAuthError } from '../errors';
import type { ApplicationStore } from '../registry/application';
import { uncoveredScopes } from '../scopes';
import {
  ruleMatches,
  type FederatedIssuer,
  type FederatedIssuerStore,
  type FederationRule,
} from './workload-federation';

/** A workload token may expire at most this far ahead (a Kubernetes projected token lives an hour by default). */
export const WORKLOAD_TOKEN_MAX_LIFETIME_SECONDS = 24 * 3600;

/** An issuer's discovered `jwks_uri` is used this long before discovery runs again. */
const DISCOVERY_MAX_AGE_MS = 600_000;
const DISCOVERY_TIMEOUT_MS = 5_000;

/**
 * Workload identity federation (RFC 7523 section 2.1, docs/workload-identity.md): a workload's
 * own token (a Kubernetes service-account token, a CI job's OIDC token), presented as `assertion`,
 * is verified with its issuer's keys and mapped by the rules a tenant registered to one app and
 * its scopes. The token is the credential: no client authentication. Refused (`invalid_grant`,
 * the same words whatever failed, the reason logged): an issuer no tenant trusts, a bad signature
 * or algorithm (RS256, PS256, ES256 only), an expired token or one living more than a day, no
 * rule or more than one matching (`client_id` picks among several), and a token presented before
 * (its `jti`, else its hash, remembered until it expires).
 */
export class WorkloadTokenVerifier {
  private readonly discovered = new Map<string, { jwksUri: string; at: number }>();

  constructor(
    private readonly issuers: Pick<FederatedIssuerStore, 'findFederatedIssuersByIssuer'>,
    private readonly applications: Pick<ApplicationStore, 'findApplication'>,
    private readonly keys: KeySetCache,
    private readonly fetch: KeySetFetch,
    private readonly replays: AssertionReplays,
    private readonly clock: Clock,
  ) {}

  async authenticate(params: Readonly<Record<string, string>>): Promise<AuthenticatedClient> {
    const assertion = params.assertion;
    if (!assertion) throw new OAuthError('invalid_request', 'assertion is required');
    const iss = issuerOf(assertion);
    const registrations = iss === undefined ? [] : await this.issuers.findFederatedIssuersByIssuer(iss);
    if (iss === undefined || registrations.length === 0) throw invalidGrant('no tenant trusts the issuer');

    const { payload, trusting } = await this.verified(assertion, iss, registrations);
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const exp = payload.exp as number;
    if (exp <= now) throw invalidGrant('the workload token expired');
    if (exp > now + WORKLOAD_TOKEN_MAX_LIFETIME_SECONDS + ASSERTION_CLOCK_SKEW_SECONDS) {
      throw invalidGrant('the workload token expires too far ahead');
    }
    if (payload.iat !== undefined && payload.iat > now + ASSERTION_CLOCK_SKEW_SECONDS) {
      throw invalidGrant('the workload token was issued in the future');
    }
    const matches = trusting.flatMap((registration) =>
      registration.rules
        .filter((rule) => ruleMatches(rule, payload))
        .filter((rule) => params.client_id === undefined || rule.clientId === params.client_id)
        .map((rule) => ({ registration, rule })),
    );
    if (matches.length !== 1) {
      throw invalidGrant(matches.length === 0 ? 'no rule matches the token' : 'more than one rule matches');
    }
    const [{ registration, rule }] = matches;
    const app = await this.applications.findApplication(rule.clientId);
    if (!app || app.tenant !== registration.tenant)
      throw invalidGrant(`rule ${rule.name}: no such app in the tenant`);

    const id = typeof payload.jti === 'string' ? payload.jti : hash('sha256', assertion, 'hex');
    const first = await this.replays.firstUse(
      assertionKey('federated_token', iss, id),
      new Date((exp + ASSERTION_CLOCK_SKEW_SECONDS) * 1000),
    );
    if (!first) throw invalidGrant('the workload token was presented before');
    return {
      app,
      authenticatedWithSecret: true,
      federation: {
        issuerId: registration.id,
        issuer: iss,
        subject: String(payload.sub),
        rule: rule.name,
        scopes: grantedScopes(rule, app.declaredScopes),
        expiresAt: exp,
      },
    };
  }

  /**
   * The verified claims, and the registrations whose keys verified them: tenants may name the
   * same issuer with different key locations, and only those whose keys signed it count.
   */
  private async verified(
    assertion: string,
    iss: string,
    registrations: FederatedIssuer[],
  ): Promise<{ payload: JWTPayload; trusting: FederatedIssuer[] }> {
    const bySource = new Map<string | null, FederatedIssuer[]>();
    for (const registration of registrations) {
      bySource.set(registration.jwksUri, [...(bySource.get(registration.jwksUri) ?? []), registration]);
    }
    const reasons: string[] = [];
    for (const [jwksUri, trusting] of bySource) {
      try {
        const keys = await this.keysOf(iss, jwksUri);
        const { payload } = await jwtVerify(assertion, keys, {
          algorithms: [...ASSERTION_SIGNING_ALGS],
          issuer: iss,
          requiredClaims: ['exp', 'sub', 'aud'],
          clockTolerance: ASSERTION_CLOCK_SKEW_SECONDS,
          currentDate: this.clock.now(),
        });
        return { payload, trusting };
      } catch (error) {
        reasons.push((error as Error).message);
      }
    }
    throw invalidGrant(`the workload token does not verify: ${reasons.join('; ')}`);
  }

  private async keysOf(iss: string, jwksUri: string | null): Promise<JWTVerifyGetKey> {
    return this.keys.fromUrl(jwksUri ?? (await this.discoveredKeys(iss)));
  }

  /** OpenID Connect Discovery 1.0 section 4: the document's `issuer` must be the issuer itself. */
  private async discoveredKeys(iss: string): Promise<string> {
    const cached = this.discovered.get(iss);
    if (cached && Date.now() - cached.at < DISCOVERY_MAX_AGE_MS) return cached.jwksUri;
    const response = await this.fetch(`${iss.replace(/\/$/, '')}/.well-known/openid-configuration`, {
      method: 'GET',
      redirect: 'manual',
      signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
    if (response.status !== 200) throw new Error(`discovery answered ${response.status}`);
    const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (document.issuer !== iss || typeof document.jwks_uri !== 'string') {
      throw new Error('the discovery document does not name this issuer and a jwks_uri');
    }
    if (this.discovered.size >= 1_000) this.discovered.clear();
    this.discovered.set(iss, { jwksUri: document.jwks_uri, at: Date.now() });
    return document.jwks_uri;
  }
}

/** The rule's scopes the app still declares (a scope it stopped declaring is not granted). */
function grantedScopes(rule: FederationRule, declared: string[]): string[] {
  return rule.scopes.filter((scope) => uncoveredScopes(declared, [scope]).length === 0);
}

function issuerOf(assertion: string): string | undefined {
  try {
    const { iss } = decodeJwt(assertion);
    return typeof iss === 'string' ? iss : undefined;
  } catch {
    return undefined;
  }
}
