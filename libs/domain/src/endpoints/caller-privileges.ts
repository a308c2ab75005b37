import type { Application } from '../application';
import { holdsAdminScope } from '../admin';
import { scopesCover } from '../scopes';

/** Apps declaring admin.* may act on any app's tokens. */
export function isAdminApp(app: Application): boolean {
  return holdsAdminScope(app.declaredScopes);
}

/** Resource servers declare tokens.introspect to introspect tokens issued to other apps. */
export function mayIntrospectAnyToken(app: Application): boolean {
  return isAdminApp(app) || scopesCover(app.declaredScopes, 'tokens.introspect');
}
