import { hiddenField } from '../../support/browser-login';
import type { CookieJar } from '../../support/cookie-jar';
import type { TestPlatform } from '../../support/platform';

/**
 * Where the authorization endpoint sends a browser holding a session, approving the consent
 * page as the user would when it is shown (its form with the page's CSRF token).
 */
export async function approvedLanding(
  platform: TestPlatform,
  jar: CookieJar,
  authorizationUrl: URL,
): Promise<URL> {
  const response = await jar.fetch(authorizationUrl);
  if (response.status === 302) return new URL(response.headers.get('location')!, platform.baseUrl);
  if (response.status !== 200) throw new Error(`authorize answered ${response.status}`);
  const page = await response.text();
  const approved = await jar.fetch(`${platform.baseUrl}/oauth/authorize/decision`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      ...Object.fromEntries(authorizationUrl.searchParams),
      decision: 'approve',
      csrf_token: hiddenField(page, 'csrf_token') ?? '',
    }),
  });
  if (approved.status !== 303) throw new Error(`the decision answered ${approved.status}`);
  return new URL(approved.headers.get('location')!);
}
