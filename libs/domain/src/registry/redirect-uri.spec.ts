import { redirectUriProblem } from './redirect-uri';

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
