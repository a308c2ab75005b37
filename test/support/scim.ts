import type * as oauth from 'oauth4webapi';
import { clientCredentialsToken, registerApp } from './oauth';
import type { TestPlatform } from './platform';

export const SCIM = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  enterprise: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  groupRoles: 'urn:platform:params:scim:schemas:extension:roles:2.0:Group',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
} as const;

export interface ScimResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- SCIM documents are open-ended JSON
  body: any;
}

/** What an identity provider's SCIM connector sends: a Bearer token and application/scim+json. */
export function scimClient(
  baseUrl: string,
  token: string | undefined,
  defaults: Record<string, string> = {},
) {
  return async function scim(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ScimResponse> {
    const response = await fetch(`${baseUrl}/scim/v2${path}`, {
      method,
      headers: {
        accept: 'application/scim+json',
        ...(token !== undefined && { authorization: `Bearer ${token}` }),
        ...(body !== undefined && { 'content-type': 'application/scim+json' }),
        ...defaults,
        ...headers,
      },
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === '' ? undefined : JSON.parse(text),
    };
  };
}

export type ScimCall = ReturnType<typeof scimClient>;

export const patchOp = (...Operations: unknown[]) => ({ schemas: [SCIM.patchOp], Operations });

/** RFC 7643 section 8.2's full user, Barbara Jensen, under another userName when given. */
export function barbara(userName = 'bjensen@example.com', externalId = 'bjensen') {
  return {
    schemas: [SCIM.user, SCIM.enterprise],
    externalId,
    userName,
    name: {
      formatted: 'Ms. Barbara J Jensen, III',
      familyName: 'Jensen',
      givenName: 'Barbara',
      middleName: 'Jane',
      honorificPrefix: 'Ms.',
      honorificSuffix: 'III',
    },
    displayName: 'Babs Jensen',
    nickName: 'Babs',
    emails: [
      { value: userName, type: 'work', primary: true },
      { value: 'babs@jensen.org', type: 'home' },
    ],
    phoneNumbers: [{ value: '555-555-5555', type: 'work' }],
    userType: 'Employee',
    title: 'Tour Guide',
    preferredLanguage: 'en-US',
    active: true,
    [SCIM.enterprise]: { employeeNumber: '701984', costCenter: '4130', department: 'Tour Operations' },
  };
}

/** A token of a new service app holding scim.read and scim.write, bound to `tenant` when given. */
export async function provisioningToken(
  platform: TestPlatform,
  as: oauth.AuthorizationServer,
  admin: string,
  clientId: string,
  tenant: string | undefined,
  scope = 'scim.read scim.write',
): Promise<string> {
  const app = await registerApp(platform, admin, {
    client_id: clientId,
    declared_scopes: ['scim.read', 'scim.write'],
    ...(tenant !== undefined && { tenant }),
  });
  const credentials = { clientId: app.client_id, clientSecret: app.client_secret! };
  return (await clientCredentialsToken(as, credentials, { scope })).access_token;
}
