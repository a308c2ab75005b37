import { redirectUriProblem, redirectUriWithParameters } from './redirect-uri';

describe(redirectUriProblem.name, () => {
  it('accepts an https URI with a path and query', () => {
    expect(redirectUriProblem('https://app.example.com/callback?tenant=a')).toBeNull();
  });

  it('accepts plain http on every loopback host', () => {
    expect(redirectUriProblem('http://localhost:8080/callback')).toBeNull();
    expect(redirectUriProblem('http://127.0.0.1:53123/callback')).toBeNull();
    expect(redirectUriProblem('http://[::1]:53123/callback')).toBeNull();
  });

  it('refuses plain http anywhere else, including hosts that only start with localhost', () => {
    expect(redirectUriProblem('http://app.example.com/callback')).toMatch(/must use https/);
    expect(redirectUriProblem('http://localhost.evil.example/callback')).toMatch(/must use https/);
  });

  it('refuses a fragment, even an empty one', () => {
    expect(redirectUriProblem('https://app.example.com/callback#done')).toMatch(/fragment/);
    expect(redirectUriProblem('https://app.example.com/callback#')).toMatch(/fragment/);
  });

  it('accepts a private-use scheme in reverse-domain form for native apps', () => {
    expect(redirectUriProblem('com.example.app:/oauth2redirect')).toBeNull();
  });

  it('refuses a private-use scheme that is not reverse-domain, and dangerous schemes', () => {
    expect(redirectUriProblem('myapp:/callback')).toMatch(/unsupported scheme/);
    expect(redirectUriProblem('javascript:alert(1)')).toMatch(/unsupported scheme/);
    expect(redirectUriProblem('data:text/html,hi')).toMatch(/unsupported scheme/);
    expect(redirectUriProblem('file:///etc/passwd')).toMatch(/unsupported scheme/);
  });

  it('refuses a relative URI', () => {
    expect(redirectUriProblem('/callback')).toMatch(/not an absolute URI/);
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
