import { publicAppsUrl, rewriteAppsLink } from './link-header';

const issuer = 'https://auth.example.test';

describe('rewriteAppsLink', () => {
  it('rewrites the control plane next link to the public apps address, keeping the query', () => {
    expect(rewriteAppsLink('</api/v1/apps?limit=10&after=worker-9>; rel="next"', issuer)).toBe(
      '<https://auth.example.test/v1/oauth/apps?limit=10&after=worker-9>; rel="next"',
    );
  });

  it('rewrites an absolute control plane address too', () => {
    expect(rewriteAppsLink('<http://127.0.0.1:8080/api/v1/apps?after=a>; rel="next"', issuer)).toBe(
      '<https://auth.example.test/v1/oauth/apps?after=a>; rel="next"',
    );
  });

  it('rewrites every link of a multi-link header', () => {
    expect(rewriteAppsLink('</api/v1/apps?after=b>; rel="next", </api/v1/apps>; rel="first"', issuer)).toBe(
      '<https://auth.example.test/v1/oauth/apps?after=b>; rel="next", <https://auth.example.test/v1/oauth/apps>; rel="first"',
    );
  });

  it('leaves links to other resources alone', () => {
    expect(rewriteAppsLink('</api/v1/scopes>; rel="related"', issuer)).toBe(
      '</api/v1/scopes>; rel="related"',
    );
  });

  it('does not treat a look-alike path as the apps collection', () => {
    expect(publicAppsUrl('/api/v1/appsx', issuer)).toBeUndefined();
  });

  it('maps a single app address', () => {
    expect(publicAppsUrl('/api/v1/apps/worker', issuer)).toBe(
      'https://auth.example.test/v1/oauth/apps/worker',
    );
  });
});
