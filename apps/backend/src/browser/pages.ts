import { html, page, type SafeHtml } from './html';

export interface ScopeView {
  name: string;
  description: string;
}

export interface ConsentView {
  clientName: string;
  /** Where the browser is sent back to (the code flow); absent in the device flow. */
  redirectUri?: string;
  scopes: ScopeView[];
  user: { name?: string; email?: string };
  /** The authorization request, echoed into hidden fields. */
  parameters: Record<string, string>;
  csrfToken: string;
  /** Where "Sign out" comes back to: this same authorization request. */
  returnTo: string;
  /** Where the answer posts; the authorization endpoint's decision unless said (the device flow's). */
  action?: string;
  /** What approving leads to, where nobody is sent back to `redirectUri` (the device flow). */
  outcome?: string;
}

/** The consent screen: who asks, for what, as whom; Approve and Deny post the request back with the CSRF token. */
export function consentPage(view: ConsentView): string {
  const who = view.user.name || view.user.email || 'you';
  const hidden = Object.entries(view.parameters).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" /> `,
  );
  const scopes =
    view.scopes.length > 0
      ? html`<ul class="scopes">
          ${view.scopes.map((scope) => html`<li>${scope.description} <code>${scope.name}</code></li>`)}
        </ul>`
      : html`<p>No particular permission: only to know that you signed in.</p>`;
  return page(
    `Authorize ${view.clientName}`,
    html`<h1><strong>${view.clientName}</strong> wants to access your account</h1>
      <p class="muted">
        Signed in as ${who}${view.user.email && view.user.name ? html` (${view.user.email})` : ''}.
      </p>
      <p>If you approve, it will be allowed to:</p>
      ${scopes}
      <p class="muted">
        ${view.outcome ?? `You will then be sent back to ${hostOf(view.redirectUri ?? '')}.`}
      </p>
      <form method="post" action="${view.action ?? '/oauth/authorize/decision'}">
        ${hidden}<input type="hidden" name="csrf_token" value="${view.csrfToken}" />
        <div class="actions">
          <button type="submit" name="decision" value="approve" class="primary">Approve</button>
          <button type="submit" name="decision" value="deny">Deny</button>
        </div>
      </form>
      ${signOutForm(view.csrfToken, view.returnTo, `Not ${who}?`)}`,
  );
}

function signOutForm(csrfToken: string, returnTo: string, prompt: string): SafeHtml {
  return html`<form method="post" action="/auth/logout" class="signout">
    <input type="hidden" name="csrf_token" value="${csrfToken}" />
    <input type="hidden" name="return_to" value="${returnTo}" />
    <span class="muted">${prompt}</span> <button type="submit">Sign out</button>
  </form>`;
}

/** An error page; it never redirects anywhere, and offers no link built from the request. */
export function errorPage(title: string, message: string): string {
  return page(
    title,
    html`<h1>${title}</h1>
      <p>${message}</p>`,
  );
}

export function signedOutPage(): string {
  return page(
    'Signed out',
    html`<h1>Signed out</h1>
      <p>You are signed out of this authorization server.</p>`,
  );
}

function hostOf(uri: string): string {
  try {
    const url = new URL(uri);
    return url.host === '' ? url.protocol : url.host;
  } catch {
    return uri;
  }
}
