import { redirectUriProblem, redirectUriWithParameters, registeredRedirectUri } from './redirect-uri';

describe(redirectUriProblem.name, () => {
  it('accepts an https URI with a path and query, for every app type that redirects', () => {
    for (const appType of ['web', 'spa', 'cli'] as const) {
      expect(redirectUriProblem('https://app.example.com/callback?tenant=a', appType)).toBeNull();
    }
  });

  it('accepts plain http on the loopback addresses 127.0.0.1 and [::1], with or without a port', () => {
    expect(redirectUriProblem('http://127.0.0.1:53123/callback', 'cli')).toBeNull();
    expect(redirectUriProblem('http://[::1]:53123/callback', 'cli')).toBeNull();
    expect(redirectUriProblem('http://127.0.0.1/callback', 'web')).toBeNull();
  });

  it('refuses plain http anywhere else, including hosts that only start with a loopback name', () => {
    expect(redirectUriProblem('http://app.example.com/callback', 'web')).toMatch(/must use https/);
    expect(redirectUriProblem('http://127.0.0.1.evil.example/callback', 'cli')).toMatch(/must use https/);
    expect(redirectUriProblem('http://127.0.0.2/callback', 'cli')).toMatch(/must use https/);
  });

  it('refuses localhost, in any case and on any scheme: 127.0.0.1 or [::1] instead (RFC 8252 section 8.3)', () => {
    for (const uri of [
      'http://localhost/cb',
      'http://localhost:8080/callback',
      'http://LOCALHOST/cb',
      'https://localhost/cb',
      'http://app.localhost/cb',
    ]) {
      expect(redirectUriProblem(uri, 'cli')).toMatch(/localhost: use 127\.0\.0\.1 or \[::1\]/);
    }
  });

  it('refuses a wildcard: redirect URIs are matched exactly', () => {
    expect(redirectUriProblem('https://*.example.test/cb', 'web')).toMatch(/wildcard/);
    expect(redirectUriProblem('https://app.example.test/*', 'web')).toMatch(/wildcard/);
  });

  it('refuses userinfo, without repeating it', () => {
    for (const uri of [
      'https://user:pw@evil.example.test/cb',
      'https://user@evil.example.test/cb',
      'https://@evil.example.test/cb',
    ]) {
      const problem = redirectUriProblem(uri, 'web');
      expect(problem).toMatch(/userinfo/);
      expect(problem).not.toContain('pw');
    }
  });

  it('refuses a fragment, even an empty one', () => {
    expect(redirectUriProblem('https://app.example.com/callback#done', 'web')).toMatch(/fragment/);
    expect(redirectUriProblem('https://app.example.com/callback#', 'web')).toMatch(/fragment/);
  });

  it.each([
    ['http://127.1/cb', '127.0.0.1'],
    ['http://0x7f.0.0.1/', '127.0.0.1'],
    ['http://2130706433/cb', '127.0.0.1'],
    ['http://127.0.0.01/cb', '127.0.0.1'],
    ['https://0300.0250.0.1/cb', '192.168.0.1'],
    ['http://[0:0:0:0:0:0:0:1]/cb', '[::1]'],
    ['http://[::ffff:127.0.0.1]/cb', '[::ffff:7f00:1]'],
  ])('refuses the non-canonical IP literal %s, naming its canonical form', (uri, canonical) => {
    expect(redirectUriProblem(uri, 'cli')).toBe(`has a non-canonical IP literal: write it as ${canonical}`);
  });

  it('refuses any other text a browser would read differently, naming the form it reads', () => {
    expect(redirectUriProblem('https://App.Example.com/cb', 'web')).toMatch(
      /not in canonical form: register it as https:\/\/app\.example\.com\/cb$/,
    );
    expect(redirectUriProblem('https://app.example.com', 'web')).toMatch(/https:\/\/app\.example\.com\/$/);
    expect(redirectUriProblem('https://app.example.com:443/cb', 'web')).toMatch(/canonical/);
    expect(redirectUriProblem('https://app.example.com/a/../cb', 'web')).toMatch(/canonical/);
    expect(redirectUriProblem('https:app.example.com/cb', 'web')).toMatch(/canonical/);
    expect(redirectUriProblem('https://good.example\\@evil.example/', 'web')).toMatch(/canonical/);
  });

  it('accepts a private-use scheme in reverse-domain form for a native (cli) app only (RFC 8252 section 7.1)', () => {
    expect(redirectUriProblem('com.example.app:/oauth2redirect', 'cli')).toBeNull();
    expect(redirectUriProblem('com.example.app:/oauth2redirect', 'web')).toMatch(
      /private-use scheme, which is for native \(cli\) apps only/,
    );
    expect(redirectUriProblem('com.example.app:/oauth2redirect', 'spa')).toMatch(/native \(cli\) apps only/);
  });

  it('refuses a private-use scheme that is not reverse-domain, and dangerous schemes', () => {
    for (const uri of ['myapp:/callback', 'javascript:alert(1)', 'data:text/html,hi', 'file:///etc/passwd']) {
      expect(redirectUriProblem(uri, 'cli')).toMatch(/unsupported scheme/);
    }
  });

  it('refuses a relative URI', () => {
    expect(redirectUriProblem('/callback', 'web')).toMatch(/not an absolute URI/);
  });
});

describe(registeredRedirectUri.name, () => {
  const cli = {
    appType: 'cli' as const,
    redirectUris: ['http://127.0.0.1/callback', 'http://[::1]:8080/callback', 'https://cli.example.com/cb'],
  };

  it('matches a registered URI exactly', () => {
    expect(registeredRedirectUri(cli, 'https://cli.example.com/cb')).toBe('https://cli.example.com/cb');
    expect(registeredRedirectUri(cli, 'https://cli.example.com/cb/')).toBeUndefined();
    expect(registeredRedirectUri(cli, 'https://cli.example.com:8443/cb')).toBeUndefined();
  });

  it("matches a native app's loopback URI on any port (RFC 8252 section 7.3)", () => {
    expect(registeredRedirectUri(cli, 'http://127.0.0.1:53123/callback')).toBe('http://127.0.0.1/callback');
    expect(registeredRedirectUri(cli, 'http://127.0.0.1/callback')).toBe('http://127.0.0.1/callback');
    expect(registeredRedirectUri(cli, 'http://[::1]:49152/callback')).toBe('http://[::1]:8080/callback');
    expect(registeredRedirectUri(cli, 'http://[::1]/callback')).toBe('http://[::1]:8080/callback');
  });

  it('matches only the port: path, query, host and a text the browser reads differently must be the same', () => {
    for (const requested of [
      'http://127.0.0.1:53123/callback/x',
      'http://127.0.0.1:53123/callback?x=1',
      'http://127.0.0.1:53123/callback#x',
      'http://[::1]:53123/callback2',
      'http://127.1:53123/callback',
      'http://user@127.0.0.1:53123/callback',
      'http://127.0.0.1:053123/callback',
      'https://127.0.0.1:53123/callback',
      'http://127.0.0.1:53123/callback/../callback',
    ]) {
      expect(registeredRedirectUri(cli, requested)).toBeUndefined();
    }
  });

  it("matches a web app's or spa's loopback URI only on its registered port", () => {
    for (const appType of ['web', 'spa'] as const) {
      const app = { appType, redirectUris: ['http://127.0.0.1:3000/callback'] };
      expect(registeredRedirectUri(app, 'http://127.0.0.1:3000/callback')).toBe(
        'http://127.0.0.1:3000/callback',
      );
      expect(registeredRedirectUri(app, 'http://127.0.0.1:3001/callback')).toBeUndefined();
    }
  });
});

describe(redirectUriWithParameters.name, () => {
  it('adds the parameters as a query', () => {
    expect(redirectUriWithParameters('https://app.example.com/cb', { code: 'abc', state: 'xyz' })).toBe(
      'https://app.example.com/cb?code=abc&state=xyz',
    );
  });

  it('keeps the registered query exactly as it was registered', () => {
    expect(redirectUriWithParameters('https://app.example.com/cb?a=b%20c&flag', { code: 'abc' })).toBe(
      'https://app.example.com/cb?a=b%20c&flag&code=abc',
    );
    expect(redirectUriWithParameters('https://app.example.com/cb?', { code: 'abc' })).toBe(
      'https://app.example.com/cb?code=abc',
    );
  });

  it('form-encodes the values, so a state cannot add parameters or a fragment', () => {
    const uri = redirectUriWithParameters('https://app.example.com/cb', { state: 'a b&code=evil#frag' });
    expect(uri).toBe('https://app.example.com/cb?state=a+b%26code%3Devil%23frag');
    expect(new URL(uri).searchParams.getAll('code')).toEqual([]);
  });

  it('leaves out parameters without a value', () => {
    expect(
      redirectUriWithParameters('com.example.app:/cb', { error: 'access_denied', state: undefined }),
    ).toBe('com.example.app:/cb?error=access_denied');
  });
});
