/** The few OAuth calls the harness makes outside the measured loads (set-up and checks). */

export const FORM = 'application/x-www-form-urlencoded';

export const form = (fields) => new URLSearchParams(fields).toString();

/** The body of a client_credentials request with client_secret_post. */
export const clientCredentialsForm = ({ clientId, clientSecret }, scope = 'jobs.read') =>
  form({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope });

/** client_credentials with client_secret_post; answers the token response or throws. */
export async function issueToken(tokenUrl, client, scope = 'jobs.read') {
  const response = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': FORM },
    body: clientCredentialsForm(client, scope),
  });
  const body = await response.json();
  if (response.status !== 200 || typeof body.access_token !== 'string') {
    throw new Error(`token request to ${tokenUrl} failed: ${response.status} ${body.error ?? ''}`);
  }
  return body;
}

/**
 * Registers a `service` app through the backend with an admin token; answers its credentials.
 * `registration` adds members of the registration (`resource_uri`, `token_exchange_audiences`).
 */
export async function registerServiceApp(
  platform,
  clientId,
  declaredScopes = ['jobs.read'],
  registration = {},
) {
  const admin = await issueToken(`${platform.baseUrl}/v1/oauth/token`, platform.admin, 'admin.*');
  const response = await fetch(`${platform.baseUrl}/v1/oauth/apps`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: clientId,
      name: 'benchmark',
      app_type: 'service',
      declared_scopes: declaredScopes,
      ...registration,
    }),
  });
  const body = await response.json();
  if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${body.title ?? ''}`);
  return { clientId: body.client_id, clientSecret: body.client_secret };
}

/** `put(path, body)` on the platform's `/api/v1` as its administrator; anything but 200 throws. */
export async function adminPut(platform) {
  const admin = (await issueToken(`${platform.baseUrl}/v1/oauth/token`, platform.admin, 'admin.*'))
    .access_token;
  return async (path, body) => {
    const response = await fetch(`${platform.baseUrl}/api/v1${path}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`PUT ${path}: ${response.status}`);
  };
}

/** The decoded JOSE header of a compact JWS (to check both servers sign the same way). */
export function jwsHeader(token) {
  return JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8'));
}

/** POSTs a form and answers status and JSON body. */
export async function postForm(url, fields) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': FORM },
    body: form(fields),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}
