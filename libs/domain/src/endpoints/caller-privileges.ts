import type { Application } from '../registry/application';
import { holdsAdminScope } from '../admin';
import { scopesCover } from '../scopes';

/** Only an unbound service app holds a platform-wide privilege over other apps' tokens. */
const platformWideService = (app: Application): boolean => app.appType === 'service' && app.tenant === null;

/** Apps declaring admin.* may act on any app's tokens. */
export function isAdminApp(app: Application): boolean {
  return platformWideService(app) && holdsAdminScope(app.declaredScopes);
}

/** Resource servers declare tokens.introspect to introspect tokens issued to other apps. */
export function mayIntrospectAnyToken(app: Application): boolean {
  return (
    isAdminApp(app) || (platformWideService(app) && scopesCover(app.declaredScopes, 'tokens.introspect'))
  );
}
