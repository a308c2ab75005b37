import { appMayUseGrant, type Application, type ApplicationStore } from '../registry/application';
import { OAuthError, type OAuthErrorCode } from '../errors';
import { parseScope, uncoveredScopes } from '../scopes';
import { isS256CodeChallenge } from './pkce';
import { redirectUriProblem, registeredRedirectUri } from '../registry/redirect-uri';
import { isServiceOnlyScope, userScopes } from '../authority/reserved-scopes';
import { isOidcScope } from '../oidc/oidc-scopes';
import { type OidcRequest, readOidcParameters } from '../oidc/oidc-request';

/** RFC 6749 section 4.1.1 and RFC 7636 section 4.3, as the browser sent them (any may be missing). */
export interface AuthorizationRequestParams {
  client_id?: string;
  redirect_uri?: string;
  response_type?: string;
  scope?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  state?: string;
  /** OpenID Connect Core section 3.1.2.1 (docs/openid-connect.md). */
  nonce?: string;
  prompt?: string;
  max_age?: string;
  id_token_hint?: string;
  login_hint?: string;
  /** Request objects and dynamic registration are not supported: their errors are answered. */
  request?: string;
  request_uri?: string;
  registration?: string;
}

/**
 * The longest value each parameter may have. Longer ones are refused at the edge (the backend)
 * with `invalid_request`, and the control plane's validation takes the same bounds.
 */
export const AUTHORIZATION_PARAMETER_MAX_LENGTH: Readonly<Record<keyof AuthorizationRequestParams, number>> =
  {
    client_id: 256,
    redirect_uri: 4096,
    response_type: 256,
    scope: 4096,
    code_challenge: 256,
    code_challenge_method: 256,
    state: 4096,
    nonce: 512,
    prompt: 256,
    max_age: 16,
    id_token_hint: 8192,
    login_hint: 512,
    request: 8192,
    request_uri: 4096,
    registration: 4096,
  };

/** The first parameter longer than its bound, if any. */
export function oversizedAuthorizationParameter(
  params: AuthorizationRequestParams,
): keyof AuthorizationRequestParams | undefined {
  const names = Object.keys(AUTHORIZATION_PARAMETER_MAX_LENGTH) as Array<keyof AuthorizationRequestParams>;
  return names.find((name) => (params[name]?.length ?? 0) > AUTHORIZATION_PARAMETER_MAX_LENGTH[name]);
}

/** A request that passed every check: what consent is asked for and a code is bound to. */
export interface ValidAuthorizationRequest {
  client: Application;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string;
  state: string | undefined;
  /** `prompt` and `max_age`, read. */
  oidc: OidcRequest;
  nonce: string | undefined;
}

/** Core section 3.1.2.6: the parameters of features the platform does not offer, and their errors. */
const UNSUPPORTED_PARAMETERS: ReadonlyArray<[keyof AuthorizationRequestParams, OAuthErrorCode]> = [
  ['request', 'request_not_supported'],
  ['request_uri', 'request_uri_not_supported'],
  ['registration', 'registration_not_supported'],
];

/**
 * RFC 6749 section 4.1.2.1. `redirectable` is false when the client or its redirect URI cannot
 * be trusted: the user then sees an error page and is never sent to the URI (no open redirect).
 */
export class AuthorizationRequestError extends OAuthError {
  constructor(
    code: OAuthErrorCode,
    description: string,
    readonly redirectable: boolean,
  ) {
    super(code, description);
  }
}

/**
 * Checks an authorization request before the user is asked anything: the client and its exact
 * redirect URI first (errors not redirectable), then response type, PKCE S256 (required, so no
 * downgrade to plain or to none) and scopes.
 */
export class AuthorizationRequestValidator {
  constructor(private readonly applications: Pick<ApplicationStore, 'findApplication'>) {}

  async validate(params: AuthorizationRequestParams): Promise<ValidAuthorizationRequest> {
    const untrusted = (code: OAuthErrorCode, description: string) =>
      new AuthorizationRequestError(code, description, false);
    if (!params.client_id) throw untrusted('invalid_request', 'client_id is required');
    const client = await this.applications.findApplication(params.client_id);
    if (!client) throw untrusted('invalid_client', 'unknown client');
    // Exact string comparison but a native app's loopback port (RFC 9700 section 2.1), and only
    // a registered URI the rules allow: one registered before them is refused, not followed.
    const redirectUri = params.redirect_uri;
    const matched = redirectUri === undefined ? undefined : registeredRedirectUri(client, redirectUri);
    const broken = matched === undefined ? null : redirectUriProblem(matched, client.appType);
    const registered = matched !== undefined && broken === null;
    if (!appMayUseGrant(client.appType, 'authorization_code')) {
      throw new AuthorizationRequestError(
        'unauthorized_client',
        `a ${client.appType} app may not use the authorization code flow`,
        registered,
      );
    }
    if (redirectUri === undefined) throw untrusted('invalid_request', 'redirect_uri is required');
    if (matched === undefined) {
      throw untrusted('invalid_request', 'redirect_uri is not registered for this client');
    }
    if (broken !== null) {
      throw untrusted(
        'invalid_request',
        `redirect_uri is registered but breaks the redirect URI rules: it ${broken}`,
      );
    }

    const refuse = (code: OAuthErrorCode, description: string) =>
      new AuthorizationRequestError(code, description, true);
    // First: a client sending a request object may have put every other parameter in it.
    const unsupported = UNSUPPORTED_PARAMETERS.find(([name]) => params[name] !== undefined);
    if (unsupported) throw refuse(unsupported[1], `the ${unsupported[0]} parameter is not supported`);
    if (!params.response_type) throw refuse('invalid_request', 'response_type is required');
    if (params.response_type !== 'code') {
      throw refuse('unsupported_response_type', 'only response_type code is supported');
    }
    if (!params.code_challenge) throw refuse('invalid_request', 'code_challenge is required (PKCE)');
    if (params.code_challenge_method !== 'S256') {
      throw refuse('invalid_request', 'code_challenge_method must be S256');
    }
    if (!isS256CodeChallenge(params.code_challenge)) {
      throw refuse('invalid_request', 'code_challenge must be 43 characters of base64url');
    }
    const oidc = readOidcParameters(params);
    if (typeof oidc === 'string') throw refuse('invalid_request', oidc);
    const scopes = requestedUserScopes(client, params.scope);
    if (typeof scopes === 'string') throw refuse('invalid_scope', scopes);
    return {
      client,
      redirectUri,
      scopes,
      codeChallenge: params.code_challenge,
      state: params.state,
      oidc,
      nonce: params.nonce,
    };
  }
}

/**
 * The scopes a user grant of `client` asks for (`scope` omitted: every one it may grant a user),
 * or why they are refused (`invalid_scope`). The authorization request's rule, which the device
 * authorization request (RFC 8628 section 3.1) follows too.
 */
export function requestedUserScopes(client: Application, scope: string | undefined): string[] | string {
  const requested = parseScope(scope);
  // A user is never granted a service-only scope, even one an app declared before 1.0 refused
  // it; the identity scopes need no declaration.
  const grantable = userScopes(client.declaredScopes);
  const scopes = requested.length === 0 ? grantable : requested;
  const serviceOnly = scopes.filter(isServiceOnlyScope);
  if (serviceOnly.length > 0) return `scope is for service apps only: ${serviceOnly.join(' ')}`;
  const refused = uncoveredScopes(
    grantable,
    scopes.filter((scope) => !isOidcScope(scope)),
  );
  if (refused.length > 0) return `scope not declared by the client: ${refused.join(' ')}`;
  return scopes;
}
