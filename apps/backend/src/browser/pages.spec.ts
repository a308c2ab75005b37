import { createHash } from 'node:crypto';
import { browserHeaders, escapeHtml, formActionSource, html } from './html';
import { consentPage, type ConsentView, errorPage } from './pages';

const view = (overrides: Partial<ConsentView> = {}): ConsentView => ({
  clientName: 'Dashboard',
  redirectUri: 'https://dashboard.example.com/callback',
  scopes: [{ name: 'jobs.read', description: 'List and view job executions' }],
  user: { name: 'Alice Admin', email: 'alice@acme.example' },
  parameters: { client_id: 'dashboard', state: 'xyz' },
  csrfToken: 'csrf-token',
  returnTo: '/oauth/authorize?client_id=dashboard',
  ...overrides,
});

describe('consentPage', () => {
  it('shows the application, each scope in plain words, and who is signed in', () => {
    const document = consentPage(view());
    expect(document).toContain('<strong>Dashboard</strong>');
    expect(document).toContain('List and view job executions');
    expect(document).toContain('Alice Admin');
    expect(document).toContain('dashboard.example.com');
  });

  it('escapes a hostile application name', () => {
    const document = consentPage(view({ clientName: '<script>alert("x")</script>' }));
    expect(document).not.toContain('<script>');
    expect(document).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  });

  it('escapes hostile scope names and descriptions', () => {
    const document = consentPage(
      view({ scopes: [{ name: 'x"><img src=x onerror=alert(1)>', description: '<b>all</b> & more' }] }),
    );
    expect(document).not.toContain('<img');
    expect(document).not.toContain('<b>');
    expect(document).toContain('&lt;b&gt;all&lt;/b&gt; &amp; more');
  });

  it('escapes parameters echoed into hidden fields so they cannot break out of the attribute', () => {
    const document = consentPage(view({ parameters: { state: '"><script>alert(1)</script>' } }));
    expect(document).toContain('name="state" value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(document).not.toContain('<script>');
  });

  it('escapes the signed-in user name', () => {
    expect(consentPage(view({ user: { name: '<i>eve</i>' } }))).toContain('&lt;i&gt;eve&lt;/i&gt;');
  });

  it('posts the decision with the CSRF token and two buttons, Approve and Deny', () => {
    const document = consentPage(view());
    expect(document).toContain('<form method="post" action="/oauth/authorize/decision">');
    expect(document).toContain('<input type="hidden" name="csrf_token" value="csrf-token" />');
    expect(document).toContain(
      '<button type="submit" name="decision" value="approve" class="primary">Approve</button>',
    );
    expect(document).toContain('<button type="submit" name="decision" value="deny">Deny</button>');
  });

  it('contains no script at all', () => {
    expect(consentPage(view())).not.toMatch(/<script|\son[a-z]+=/i);
  });
});

describe('page', () => {
  it('inlines exactly the stylesheet the CSP hash allows', () => {
    const document = consentPage(view());
    const style = /<style>([\s\S]*?)<\/style>/.exec(document)?.[1] ?? '';
    const hash = createHash('sha256').update(style).digest('base64');
    expect(style).toContain(':root');
    expect(browserHeaders()['content-security-policy']).toContain(`style-src 'sha256-${hash}'`);
  });
});

describe('errorPage', () => {
  it('escapes the message and offers no link', () => {
    const document = errorPage('Bad request', 'client <x> & "y"');
    expect(document).toContain('client &lt;x&gt; &amp; &quot;y&quot;');
    expect(document).not.toContain('href=');
  });
});

describe('html', () => {
  it('escapes interpolations but not nested templates', () => {
    expect(html`<p>${'<b>'}${html`<i>${'&'}</i>`}</p>`.value).toBe('<p>&lt;b&gt;<i>&amp;</i></p>');
  });

  it('escapes both quote kinds', () => {
    expect(escapeHtml(`"'`)).toBe('&quot;&#39;');
  });
});

describe('browserHeaders', () => {
  it('forbids scripts, framing, caching and referrers', () => {
    const headers = browserHeaders();
    expect(headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(headers['content-security-policy']).not.toMatch(/script-src|unsafe-inline/);
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain("form-action 'self'");
    expect(headers).toMatchObject({
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
  });

  it('adds the redirect origin to form-action', () => {
    expect(browserHeaders(['https://app.example'])['content-security-policy']).toContain(
      "form-action 'self' https://app.example;",
    );
  });
});

describe('formActionSource', () => {
  it.each([
    ['https://app.example/cb?x=1', 'https://app.example'],
    ['http://127.0.0.1:8765/callback', 'http://127.0.0.1:8765'],
    ['com.example.app:/oauth', 'com.example.app:'],
  ])('allows %s as %s', (uri, source) => {
    expect(formActionSource(uri)).toBe(source);
  });

  it('answers undefined for what is not a URL', () => {
    expect(formActionSource('not a url; script-src *')).toBeUndefined();
  });
});
