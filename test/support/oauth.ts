import type { RegisteredApplicationDto } from '@platform/contract';
import * as oauth from 'oauth4webapi';
import type { TestPlatform } from './platform';

/** Discovers the platform's metadata with oauth4webapi, as a real client does. */
export async function discover(platform: TestPlatform): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(platform.baseUrl);
  const response = await oauth.discoveryRequest(issuer, {
    algorithm: 'oauth2',
    [oauth.allowInsecureRequests]: true,
  });
  return oauth.processDiscoveryResponse(issuer, response);
}

/** client_credentials through oauth4webapi with the given client authentication (and RFC 8707 `resource`). */
export async function clientCredentialsToken(
  as: oauth.AuthorizationServer,
  client: { clientId: string; clientSecret: string },
  options: { method?: 'basic' | 'post'; scope?: string; resource?: string } = {},
): Promise<oauth.TokenEndpointResponse> {
  const auth =
    options.method === 'post'
      ? oauth.ClientSecretPost(client.clientSecret)
      : oauth.ClientSecretBasic(client.clientSecret);
  const params = new URLSearchParams({
    ...(options.scope !== undefined && { scope: options.scope }),
    ...(options.resource !== undefined && { resource: options.resource }),
  });
  const response = await oauth.clientCredentialsGrantRequest(
    as,
    { client_id: client.clientId },
    auth,
    params,
    {
      [oauth.allowInsecureRequests]: true,
    },
  );
  return oauth.processClientCredentialsResponse(as, { client_id: client.clientId }, response);
}

export async function adminToken(as: oauth.AuthorizationServer, platform: TestPlatform): Promise<string> {
  return (await clientCredentialsToken(as, platform.admin)).access_token;
}

/** Plain form POST, for the error paths a client library would refuse to send. */
export function postForm(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
}

export function basic(clientId: string, clientSecret: string): string {
  const enc = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(clientId)}:${enc(clientSecret)}`).toString('base64')}`;
}

export type RegisteredApp = RegisteredApplicationDto;

export async function registerApp(
  platform: TestPlatform,
  token: string,
  body: Partial<RegisteredApp> & { client_id: string },
): Promise<RegisteredApp> {
  const response = await fetch(`${platform.baseUrl}/v1/oauth/apps`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: body.client_id,
      app_type: 'service',
      declared_scopes: ['jobs.read'],
      ...body,
    }),
  });
  if (response.status !== 201)
    throw new Error(`registration failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as RegisteredApp;
}
