import { html, page } from '../browser/html';

export interface EndSessionConfirmation {
  /** The client asking, when the request named one. */
  clientName: string | null;
  /** The request, echoed into hidden fields. */
  parameters: Record<string, string>;
  csrfToken: string;
}

/**
 * Asks the user before ending the session: a GET from any site could otherwise sign them out
 * (RP-Initiated Logout 1.0 section 2 lets the OP ask). "Sign out" posts the request back with
 * the CSRF token; staying signed in is just leaving the page.
 */
export function endSessionConfirmationPage(view: EndSessionConfirmation): string {
  const hidden = Object.entries(view.parameters).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" /> `,
  );
  return page(
    'Sign out?',
    html`<h1>Sign out?</h1>
      <p>
        ${
          view.clientName === null
            ? html`A page asks to sign you out of this authorization server.`
            : html`<strong>${view.clientName}</strong> asks to sign you out of this authorization server.`
        }
      </p>
      <p class="muted">Applications you signed in to through it may sign you out too.</p>
      <form method="post" action="/oauth/logout">
        ${hidden}<input type="hidden" name="csrf_token" value="${view.csrfToken}" />
        <div class="actions">
          <button type="submit" class="primary">Sign out</button>
        </div>
      </form>
      <p class="muted">To stay signed in, close this page.</p>`,
  );
}
