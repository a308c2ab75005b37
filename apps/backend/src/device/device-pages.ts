import { html, page } from '../browser/html';

export interface UserCodeFormView {
  /** The code to fill in (from `?user_code=` or as the user typed it). */
  userCode: string;
  csrfToken: string;
  /** Why the code was not taken, shown above the form. */
  problem?: string;
}

/** The verification page (RFC 8628 section 3.3): the code the device shows, typed or filled in. */
export function userCodePage(view: UserCodeFormView): string {
  return page(
    'Connect a device',
    html`<h1>Connect a device</h1>
      ${view.problem === undefined ? '' : html`<p role="alert"><strong>${view.problem}</strong></p>`}
      <p>
        Enter the code your device shows. Only enter a code that you started yourself, on a device you are
        using.
      </p>
      <form method="post" action="/device">
        <input type="hidden" name="csrf_token" value="${view.csrfToken}" />
        <p>
          <label for="user_code">Code</label>
          <input
            id="user_code"
            name="user_code"
            value="${view.userCode}"
            autocomplete="off"
            autocapitalize="characters"
            spellcheck="false"
            maxlength="32"
            required
          />
        </p>
        <div class="actions"><button type="submit" class="primary">Continue</button></div>
      </form>`,
  );
}

/** After the answer: nothing more to do in the browser. */
export function deviceDecidedPage(status: 'approved' | 'denied', clientName?: string): string {
  return status === 'approved'
    ? page(
        'Device connected',
        html`<h1>Device connected</h1>
          <p>
            ${clientName ?? 'The device'} is now signed in as you. You can close this window and return to
            your device.
          </p>`,
      )
    : page(
        'Request denied',
        html`<h1>Request denied</h1>
          <p>The device was not given access. You can close this window.</p>`,
      );
}
