import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CookieJar } from './cookie-jar';
import type { TestPlatform } from './platform';

/** The development identity provider's demo accounts (scripts/dev-idp.mjs) and their password. */
export const DEMO_PASSWORD = 'demo';
export const ALICE = {
  email: 'alice@acme.example',
  name: 'Alice Admin',
  tenant: 'acme',
  roles: ['tenant_admin'],
};
export const BOB = { email: 'bob@acme.example', name: 'Bob User', tenant: 'acme', roles: ['user'] };

/** The backend's cookie names over plain HTTP in test (HTTPS deployments add `__Host-`). */
export const SESSION_COOKIE = 'session';
export const LOGIN_COOKIE = 'login';

const isRedirect = (response: Response) => response.status >= 300 && response.status < 400;

/** The next URL of a redirect, resolved against the current one. */
export function locationOf(response: Response, current: URL): URL {
  const location = response.headers.get('location');
  if (location === null) throw new Error(`${response.status} from ${current.href} without a Location`);
  return new URL(location, current);
}

/**
 * Signs in through the backend's login and the development identity provider with plain
 * fetch, as a browser would (redirects followed by hand, cookies kept in the jar). Answers the
 * backend callback's response: a redirect to return_to with the session cookie, or its error.
 */
export function signInWithFetch(
  jar: CookieJar,
  platform: TestPlatform,
  email: string,
  returnTo = '/health',
  password = DEMO_PASSWORD,
): Promise<Response> {
  const start = new URL(`/auth/login?return_to=${encodeURIComponent(returnTo)}`, platform.baseUrl);
  return followLoginWithFetch(jar, platform, start, email, password);
}

/**
 * Follows a login that starts at `start` (the backend's own login or the app login family)
 * through the development identity provider, up to the backend's `/auth/oidc/callback` answer.
 */
export async function followLoginWithFetch(
  jar: CookieJar,
  platform: TestPlatform,
  start: URL,
  email: string,
  password = DEMO_PASSWORD,
): Promise<Response> {
  let url = start;
  let response = await jar.fetch(url);
  for (let hops = 0; hops < 12; hops += 1) {
    if (url.origin === new URL(platform.baseUrl).origin && url.pathname === '/auth/oidc/callback') {
      return response;
    }
    if (isRedirect(response)) {
      url = locationOf(response, url);
      response = await jar.fetch(url);
    } else if (response.status === 200 && url.pathname.startsWith('/interaction/')) {
      url = new URL(`${url.pathname}/login`, url);
      response = await jar.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ login: email, password }),
      });
      if (!isRedirect(response))
        throw new Error(`the identity provider refused ${email}: ${response.status}`);
      url = locationOf(response, url);
      response = await jar.fetch(url);
    } else {
      throw new Error(`sign-in stopped at ${url.href} with ${response.status}: ${await response.text()}`);
    }
  }
  throw new Error('sign-in did not reach the callback');
}

/** The value of a hidden form field of a server-rendered page. */
export function hiddenField(html: string, name: string): string | undefined {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html);
  return match?.[1]
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * The client application's redirect URI: a tiny local HTTP server that records where the
 * browser lands (`/callback?code=...&state=...`) and answers a plain page.
 */
export async function startRedirectCatcher(): Promise<{
  redirectUri: string;
  /** The next URL the browser lands on; rejects when none comes within `timeoutMs`. */
  next(timeoutMs?: number): Promise<URL>;
  close(): Promise<void>;
}> {
  const waiting: Array<(url: URL) => void> = [];
  const landed: URL[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', redirectUri);
    if (url.pathname !== '/callback') {
      response.writeHead(404).end(); // the browser's /favicon.ico, say
      return;
    }
    const resolve = waiting.shift();
    if (resolve) resolve(url);
    else landed.push(url);
    response.writeHead(200, { 'content-type': 'text/plain' }).end('client application callback');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return {
    redirectUri,
    next: (timeoutMs = 15_000) => {
      const already = landed.shift();
      if (already) return Promise.resolve(already);
      return new Promise<URL>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(deliver), 1);
          reject(new Error(`the browser did not reach ${redirectUri} within ${timeoutMs} ms`));
        }, timeoutMs);
        const deliver = (url: URL) => {
          clearTimeout(timer);
          resolve(url);
        };
        waiting.push(deliver);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
