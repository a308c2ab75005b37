import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { followLoginWithFetch } from '../../support/browser-login';
import type { CookieJar } from '../../support/cookie-jar';
import type { TestPlatform } from '../../support/platform';

/**
 * A newcomer's app: a local HTTP server whose `/auth/callback` records where the browser lands
 * (`?code=...`) and answers a plain page.
 */
export async function startApp(): Promise<{
  callback: string;
  landed: URL[];
  next(timeoutMs?: number): Promise<URL>;
  close(): Promise<void>;
}> {
  const landed: URL[] = [];
  const waiting: Array<(url: URL) => void> = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', callback);
    if (url.pathname !== '/auth/callback') {
      response.writeHead(404).end();
      return;
    }
    landed.push(url);
    waiting.shift()?.(url);
    response.writeHead(200, { 'content-type': 'text/plain' }).end('signed in');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const callback = `http://127.0.0.1:${(server.address() as AddressInfo).port}/auth/callback`;
  return {
    callback,
    landed,
    next: (timeoutMs = 15_000) =>
      new Promise<URL>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`nothing reached ${callback}`)), timeoutMs);
        waiting.push((url) => {
          clearTimeout(timer);
          resolve(url);
        });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What the app keeps for one login in its user's session: its PKCE verifier and its state. */
export interface AppLoginSecrets {
  verifier: string;
  challenge: string;
  state: string;
}

/** A fresh PKCE pair (RFC 7636, S256) and state, as the app makes them for each login. */
export function appLoginSecrets(): AppLoginSecrets {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge, state: randomBytes(16).toString('base64url') };
}

/** The app login's start URL for the app's callback, with its challenge and state. */
export function appLoginUrl(
  platform: TestPlatform,
  returnTo: string,
  secrets: Pick<AppLoginSecrets, 'challenge' | 'state'>,
): URL {
  const query = new URLSearchParams({
    return_to: returnTo,
    code_challenge: secrets.challenge,
    code_challenge_method: 'S256',
    state: secrets.state,
  });
  return new URL(`/api/v1/auth/oidc/login?${query.toString()}`, platform.baseUrl);
}

/**
 * The app login with plain fetch, as a browser would do it (redirects by hand, cookies in the
 * jar), up to the backend's answer at `/auth/oidc/callback`: a redirect to the app's callback.
 */
export function appLoginWithFetch(
  jar: CookieJar,
  platform: TestPlatform,
  returnTo: string,
  email: string,
  secrets: Pick<AppLoginSecrets, 'challenge' | 'state'>,
): Promise<Response> {
  return followLoginWithFetch(jar, platform, appLoginUrl(platform, returnTo, secrets), email);
}

export interface AppTokens {
  accessToken: string;
  refreshToken: string;
  tokenType: string;
  expiresIn: number;
  scope: string;
}

/** JSON POST to the backend, as the app's server does. */
export function postJson(
  platform: TestPlatform,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${platform.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}
