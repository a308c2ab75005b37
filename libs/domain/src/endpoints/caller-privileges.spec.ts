import { anApplication } from '../testing/in-memory-stores';
import { isAdminApp, mayIntrospectAnyToken } from './caller-privileges';

describe(isAdminApp.name, () => {
  it('is true only for an app declaring admin.*', () => {
    expect(isAdminApp(anApplication({ declaredScopes: ['admin.*'] }))).toBe(true);
    expect(isAdminApp(anApplication({ declaredScopes: ['admin.apps.read'] }))).toBe(false);
    expect(isAdminApp(anApplication({ declaredScopes: ['jobs.*', 'tokens.introspect'] }))).toBe(false);
  });
});

describe(mayIntrospectAnyToken.name, () => {
  it('is true for a resource server declaring tokens.introspect and for an admin app', () => {
    expect(mayIntrospectAnyToken(anApplication({ declaredScopes: ['tokens.introspect'] }))).toBe(true);
    expect(mayIntrospectAnyToken(anApplication({ declaredScopes: ['admin.*'] }))).toBe(true);
  });

  it('is false for an ordinary app', () => {
    expect(mayIntrospectAnyToken(anApplication({ declaredScopes: ['jobs.read', 'files.*'] }))).toBe(false);
  });
});
