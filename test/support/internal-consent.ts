import type { UserDto } from '@platform/contract';
import * as client from 'openid-client';
import type { RegisteredApp } from './oauth';
import type { TestPlatform } from './platform';

/**
 * The user side of the authorization code flow without a browser: a session straight from
 * the control plane's internal route, opened from claims through the test seam
 * (TEST_SESSIONS_FROM_CLAIMS, set by startPlatform and refused in production; the backend sends
 * the provider's ID token instead), and the decision the consent page would post. Everything after the redirect goes
 * through the public surface with openid-client.
 */

export interface TestIdentity {
  issuer: string;
  subject: string;
  claims: Record<string, unknown>;
}

export const TEST_IDENTITY: TestIdentity = {
  issuer: 'https://idp.example.test',
  subject: 'ada',
  claims: {
    email: 'ada@example.test',
    name: 'Ada Lovelace',
    tenant: 'acme',
    roles: ['tenant_admin', 'viewer'],
  },
};

/** A user of `tenant` with `roles`, as the identity provider would describe them. */
export const identityOf = (subject: string, tenant: string, roles: string[]): TestIdentity => ({
  issuer: TEST_IDENTITY.issuer,
  subject,
  claims: { email: `${subject}@${tenant}.example.test`, name: subject, tenant, roles },
});

export type TestUser = UserDto;

/** A JSON POST to an internal route of the control plane, with the internal token. */
export function internalPost(
  platform: TestPlatform,
  path: string,
  body: unknown,
  headers: Record<string, string> = { 'x-internal-token': platform.internalToken },
): Promise<Response> {
  return fetch(`${platform.controlPlaneUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

export async function createSession(
  platform: TestPlatform,
  identity: TestIdentity = TEST_IDENTITY,
): Promise<{ session: string; user: TestUser }> {
  const response = await internalPost(platform, '/internal/v1/sessions', identity);
  if (response.status !== 201) throw new Error(`session: ${response.status} ${await response.text()}`);
  return (await response.json()) as { session: string; user: TestUser };
}

/** openid-client as the app would configure it: no secret for spa and cli, client_secret_post for web. */
export function clientFor(platform: TestPlatform, app: RegisteredApp): Promise<client.Configuration> {
  const auth = app.client_secret === undefined ? client.None() : client.ClientSecretPost(app.client_secret);
  return client.discovery(new URL(platform.baseUrl), app.client_id, undefined, auth, {
    execute: [client.allowInsecureRequests],
    algorithm: 'oauth2',
  });
}

export interface Authorization {
  /** Where the browser lands: the redirect URI with `code` and `state`. */
  callback: URL;
  verifier: string;
  state: string;
}

/**
 * Builds the authorization request with openid-client (PKCE S256, state) and approves it on
 * the user's behalf, as the consent page does.
 */
export async function authorize(
  platform: TestPlatform,
  config: client.Configuration,
  options: { session: string; redirectUri: string; scope?: string },
): Promise<Authorization> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: options.redirectUri,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...(options.scope !== undefined && { scope: options.scope }),
  });
  const response = await internalPost(platform, '/internal/v1/authorize/decision', {
    ...Object.fromEntries(url.searchParams),
    session: options.session,
    approved: true,
  });
  if (response.status !== 200) throw new Error(`decision: ${response.status} ${await response.text()}`);
  const { redirect_to } = (await response.json()) as { redirect_to: string };
  return { callback: new URL(redirect_to), verifier, state };
}

/**
 * Logs a user in (the test user by default), approves, and exchanges the code: the app's first
 * tokens; `resource` (RFC 8707) is named at the token request, where the platform reads it.
 */
export async function signIn(
  platform: TestPlatform,
  app: RegisteredApp,
  options: { scope?: string; identity?: TestIdentity; resource?: string } = {},
): Promise<{ config: client.Configuration; user: TestUser; tokens: client.TokenEndpointResponse }> {
  const config = await clientFor(platform, app);
  const { session, user } = await createSession(platform, options.identity);
  const { callback, verifier, state } = await authorize(platform, config, {
    session,
    redirectUri: app.redirect_uris[0],
    scope: options.scope,
  });
  const tokens = await client.authorizationCodeGrant(
    config,
    callback,
    { pkceCodeVerifier: verifier, expectedState: state },
    options.resource === undefined ? undefined : { resource: options.resource },
  );
  return { config, user, tokens };
}

/** The status of `GET /v1/me` with the token: what a resource server behind the backend sees. */
export async function meStatus(platform: TestPlatform, accessToken: string): Promise<number> {
  const response = await fetch(`${platform.baseUrl}/v1/me`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return response.status;
}

/**
 * Waits until `GET /v1/me` refuses the token. A revocation caused at the token endpoint (a
 * replayed code or refresh token) reaches the sidecar through its stream, within milliseconds.
 */
export async function untilRejected(
  platform: TestPlatform,
  accessToken: string,
  timeoutMs = 3000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await meStatus(platform, accessToken)) !== 401) {
    if (Date.now() > deadline) throw new Error(`the token was still accepted after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Introspection with the admin app's credentials, which may introspect any token. */
export async function introspectAsAdmin(
  platform: TestPlatform,
  token: string,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${platform.baseUrl}/v1/oauth/introspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      token,
      client_id: platform.admin.clientId,
      client_secret: platform.admin.clientSecret,
    }),
  });
  return (await response.json()) as Record<string, unknown>;
}
