import { holdsAdminScope } from './admin';

describe(holdsAdminScope.name, () => {
  it('is true only for a scope list covering admin.*', () => {
    expect(holdsAdminScope(['admin.*'])).toBe(true);
    expect(holdsAdminScope(['admin.read', 'jobs.*'])).toBe(false);
    expect(holdsAdminScope(['admins.*'])).toBe(false);
  });
});
