import {
  isDefinedScope,
  parseScope,
  scopeCovers,
  scopesCover,
  STANDARD_SCOPES,
  uncoveredScopes,
} from './scopes';

describe('scopeCovers', () => {
  it('lets a scope cover itself', () => {
    expect(scopeCovers('jobs.read', 'jobs.read')).toBe(true);
  });

  it('does not let a plain scope cover a sibling', () => {
    expect(scopeCovers('jobs.read', 'jobs.write')).toBe(false);
  });

  it('lets jobs.* cover every action of jobs and jobs.* itself', () => {
    expect(scopeCovers('jobs.*', 'jobs.read')).toBe(true);
    expect(scopeCovers('jobs.*', 'jobs.write')).toBe(true);
    expect(scopeCovers('jobs.*', 'jobs.*')).toBe(true);
  });

  it('does not let jobs.* cover another resource that merely starts with "jobs"', () => {
    expect(scopeCovers('jobs.*', 'jobsx.read')).toBe(false);
  });

  it('does not let jobs.* cover the bare resource name or an empty action', () => {
    expect(scopeCovers('jobs.*', 'jobs')).toBe(false);
    expect(scopeCovers('jobs.*', 'jobs.')).toBe(false);
  });

  it('does not let a narrower scope cover a wildcard', () => {
    expect(scopeCovers('jobs.read', 'jobs.*')).toBe(false);
  });

  it('treats admin.* as a wildcard over admin only, not over every scope', () => {
    expect(scopeCovers('admin.*', 'admin.*')).toBe(true);
    expect(scopeCovers('admin.*', 'admin.apps.write')).toBe(true);
    expect(scopeCovers('admin.*', 'jobs.read')).toBe(false);
  });
});

describe('uncoveredScopes', () => {
  it('is empty when every requested scope is declared or covered by a declared wildcard', () => {
    expect(uncoveredScopes(['jobs.*', 'files.read'], ['jobs.read', 'jobs.write', 'files.read'])).toEqual([]);
  });

  it('names exactly the requested scopes nothing declared covers', () => {
    expect(
      uncoveredScopes(['jobs.*', 'files.read'], ['jobs.read', 'files.write', 'jobsx.read', 'jobs']),
    ).toEqual(['files.write', 'jobsx.read', 'jobs']);
  });

  it('refuses everything when nothing is declared', () => {
    expect(uncoveredScopes([], ['jobs.read'])).toEqual(['jobs.read']);
  });
});

describe('scopesCover', () => {
  it('is true when any one declared scope covers the request', () => {
    expect(scopesCover(['files.read', 'admin.*'], 'admin.keys.rotate')).toBe(true);
    expect(scopesCover(['files.read'], 'files.write')).toBe(false);
  });
});

describe('parseScope', () => {
  it('splits on spaces and drops duplicates, keeping the first order', () => {
    expect(parseScope('jobs.read files.read jobs.read')).toEqual(['jobs.read', 'files.read']);
  });

  it('ignores leading, trailing and repeated spaces', () => {
    expect(parseScope('  jobs.read   files.read ')).toEqual(['jobs.read', 'files.read']);
  });

  it('gives no scopes for an empty, blank or missing value', () => {
    expect(parseScope('')).toEqual([]);
    expect(parseScope('   ')).toEqual([]);
    expect(parseScope(undefined)).toEqual([]);
    expect(parseScope(null)).toEqual([]);
  });
});

describe('isDefinedScope', () => {
  const defined = STANDARD_SCOPES.map((s) => s.name);

  it('accepts a standard scope', () => {
    expect(isDefinedScope('files.write', defined)).toBe(true);
  });

  it('has twenty-five standard scopes, users.*, audit.read, scim.*, jobs.work, federation.*, saml.*, entitlements and quotas and the sidecar services among them', () => {
    expect(defined).toHaveLength(25);
    expect(defined).toEqual(
      expect.arrayContaining([
        'users.read',
        'users.write',
        'audit.read',
        'scim.read',
        'scim.write',
        'federation.read',
        'federation.write',
        'saml.read',
        'saml.write',
        'jobs.work',
        'ratelimit.check',
        'flags.read',
        'masking.apply',
      ]),
    );
    expect(isDefinedScope('users.*', defined)).toBe(true);
  });

  it('accepts a custom scope once it is in the defined list', () => {
    expect(isDefinedScope('reports.read', defined)).toBe(false);
    expect(isDefinedScope('reports.read', [...defined, 'reports.read'])).toBe(true);
  });

  it('accepts a wildcard over a resource that has defined scopes', () => {
    expect(isDefinedScope('jobs.*', defined)).toBe(true);
    expect(isDefinedScope('reports.*', [...defined, 'reports.read'])).toBe(true);
  });

  it('refuses a wildcard over a resource with no defined scope, even a prefix of one', () => {
    expect(isDefinedScope('reports.*', defined)).toBe(false);
    expect(isDefinedScope('job.*', defined)).toBe(false);
  });

  it('accepts what a defined wildcard covers', () => {
    expect(isDefinedScope('admin.apps.write', defined)).toBe(true);
    expect(isDefinedScope('admin.*', defined)).toBe(true);
  });

  it('refuses an unknown scope and the bare resource name', () => {
    expect(isDefinedScope('jobs.delete', defined)).toBe(false);
    expect(isDefinedScope('jobs', defined)).toBe(false);
  });
});
