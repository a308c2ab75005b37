/**
 * OpenID Connect's identity scopes (Core section 5.4, 11). They ask who the user is, not what
 * an API may do: every user-facing app may ask for them without declaring them, a service app
 * never, and they grant no action of the policy engine.
 */
export const OIDC_SCOPES: ReadonlyArray<{ name: string; description: string }> = [
  { name: 'openid', description: 'Sign you in with your platform account' },
  { name: 'profile', description: 'Your name and user name' },
  { name: 'email', description: 'Your email address' },
  { name: 'offline_access', description: 'Keep access after you sign out of the platform' },
];

export const OPENID_SCOPE = 'openid';
/** A grant with it outlives the browser session it began in (Back-Channel Logout section 2.7). */
export const OFFLINE_ACCESS_SCOPE = 'offline_access';

const NAMES = new Set(OIDC_SCOPES.map((scope) => scope.name));

export function isOidcScope(scope: string): boolean {
  return NAMES.has(scope);
}
