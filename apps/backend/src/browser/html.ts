import { createHash } from 'node:crypto';

/** Markup that is already safe: produced by `html` from escaped values. */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for an HTML element body and for a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

/**
 * Template tag: every interpolated value is escaped unless it is SafeHtml (nested templates);
 * arrays are joined; undefined, null and false render nothing.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0];
  values.forEach((value, index) => {
    out += render(value) + strings[index + 1];
  });
  return new SafeHtml(out);
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
}

const STYLESHEET = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0; display: flex; justify-content: center; padding: 3rem 1rem; }
main { max-width: 32rem; width: 100%; }
h1 { font-size: 1.4rem; margin: 0 0 1rem; }
ul.scopes { padding-left: 1.2rem; }
ul.scopes code { font-size: .85em; opacity: .75; }
.actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
button { font: inherit; padding: .5rem 1.25rem; border-radius: .4rem; border: 1px solid #888; cursor: pointer; }
button.primary { background: #2459d6; color: #fff; border-color: #2459d6; }
.muted { opacity: .75; font-size: .9rem; }
.signout { margin-top: 2rem; }
.signout button { padding: .2rem .6rem; font-size: .85rem; }
`;

/** The one stylesheet, inlined and allowed by its hash (CSP `style-src`), so no inline script or style is ever allowed. */
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLESHEET).digest('base64')}'`;

/** Built outside any template: the element's text must be exactly STYLESHEET for the hash to match. */
const STYLE_ELEMENT = new SafeHtml(`<style>${STYLESHEET}</style>`);

/** A whole page: the shell around trusted body markup. */
export function page(title: string, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title}</title>
        ${STYLE_ELEMENT}
      </head>
      <body>
        <main>${body}</main>
      </body>
    </html> `.value;
}

/** The form-action source allowing a redirect to this URI after a form post; undefined if none fits. */
export function formActionSource(redirectUri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return undefined;
  }
  if (url.protocol === 'https:' || url.protocol === 'http:') return url.origin;
  return /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) ? url.protocol : undefined;
}

/**
 * Headers of every page and redirect the browser routes send: a CSP with no script at all, no
 * framing (also `X-Frame-Options` for old browsers), never cached, no Referer leaking the
 * authorization parameters. `formActions` are extra form targets: Chromium applies `form-action`
 * to the redirect that follows a form post too, so the consent page must name the client's
 * redirect origin.
 */
export function browserHeaders(formActions: readonly string[] = []): Record<string, string> {
  const formAction = ["'self'", ...formActions].join(' ');
  return {
    'content-security-policy': [
      "default-src 'none'",
      `style-src ${STYLE_HASH}`,
      `form-action ${formAction}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    pragma: 'no-cache',
    'referrer-policy': 'no-referrer',
  };
}

export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';
