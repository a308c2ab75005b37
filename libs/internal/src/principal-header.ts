/**
 * `x-platform-principal`: how a process that already authorized a caller (the backend's
 * permission guard, a sidecar's audit service) names that caller to the control plane's
 * internal routes. The control plane reads it back (`readPrincipal`) and never sees the token.
 */
export const PRINCIPAL_HEADER = 'x-platform-principal';

/** The claims the header is made of (a validated access token's). */
export interface PrincipalClaims {
  sub: string;
  client_id: string;
  /** A user's tenant, or the tenant a bound service app acts in. */
  tenant?: string;
  roles?: readonly string[];
  scope: string;
  /** Set (non-empty) on a user token only. */
  grant_id?: string;
  /** Who acts for `sub` (an exchanged or impersonation token, RFC 8693): the current actor first. */
  act?: { sub: string } | null;
}

/** The caller as the header describes it. */
export interface CallerPrincipal {
  kind: 'user' | 'service';
  id: string;
  client_id: string;
  tenant: string;
  roles: string[];
  /** The token's current actor (its `act.sub`), when someone acts for the caller: audited with it. */
  acted_by?: string;
}

/** A user token (it has a grant) acts as its user; any other as its app, in its tenant if bound. */
export function callerPrincipal(claims: PrincipalClaims): CallerPrincipal {
  const user = (claims.grant_id ?? '') !== '';
  return {
    kind: user ? 'user' : 'service',
    id: claims.sub,
    client_id: claims.client_id,
    tenant: claims.tenant ?? '',
    roles: user ? [...(claims.roles ?? [])] : [],
    ...(claims.act && { acted_by: claims.act.sub }),
  };
}

/**
 * `base64url(JSON {kind, id, client_id, tenant, roles, scope, acted_by?})` (docs/internal-api.md), with the
 * token's scope, which decides for a service token whether it is a platform administrator.
 */
export function encodePrincipal(claims: PrincipalClaims): string {
  return Buffer.from(JSON.stringify({ ...callerPrincipal(claims), scope: claims.scope })).toString(
    'base64url',
  );
}

/**
 * `x-platform-tenant`: the tenant a caller asks to act in where the route names none (SCIM:
 * a platform admin provisioning another tenant than its own). Public at the backend, relayed as is.
 */
export const TENANT_HEADER = 'x-platform-tenant';
