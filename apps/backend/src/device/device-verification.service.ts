import { Injectable } from '@nestjs/common';
import { DomainError, formatUserCode, normalizeUserCode } from '@platform/domain';
import { CsrfTokens } from '../browser/csrf';
import type { ConsentView } from '../browser/pages';
import { DeviceClient } from '../clients/device.client';
import { UserCodeGuesses } from './user-code-guesses';

/** Where the verification page goes next. */
export type DeviceOutcome =
  /** The form to type the code, with why the last one was not taken. */
  | { kind: 'form'; status: 200 | 400 | 429; userCode: string; csrfToken: string; problem?: string }
  /** The login, coming back to the form; `sessionEnded`: drop the cookie. */
  | { kind: 'login'; location: string; sessionEnded: boolean }
  | { kind: 'consent'; view: ConsentView }
  | { kind: 'decided'; status: 'approved' | 'denied' };

const WRONG_CODE =
  'That code is not valid: it may be mistyped, expired (codes last 10 minutes), or already used. Check the code on your device and try again.';

/**
 * The browser side of the device flow's verification (RFC 8628 section 3.3). The session is
 * required; every code submitted counts against the guessing limits before it is looked up; the
 * consent form carries a token binding its code to the session (an HMAC as the CSRF tokens are),
 * so the decision needs no limit of its own.
 */
@Injectable()
export class DeviceVerificationService {
  constructor(
    private readonly devices: DeviceClient,
    private readonly csrf: CsrfTokens,
    private readonly guesses: UserCodeGuesses,
  ) {}

  /** `GET /device`: the form, the code filled in from `?user_code=`; the login first without a session. */
  form(session: string | undefined, typed: string | undefined): DeviceOutcome {
    const userCode = typed === undefined ? '' : displayed(typed);
    if (session === undefined) return toLogin(userCode, false);
    return { kind: 'form', status: 200, userCode, csrfToken: this.csrf.tokenFor(session) };
  }

  /** `POST /device`: the code typed; the consent page for it, or the form again saying why not. */
  async enter(
    session: string | undefined,
    csrfToken: unknown,
    typed: unknown,
    address: string,
  ): Promise<DeviceOutcome> {
    const userCode = typeof typed === 'string' ? displayed(typed) : '';
    if (session === undefined) return toLogin(userCode, false);
    this.refuseForgery(session, csrfToken);
    const again = (status: 400 | 429, problem: string): DeviceOutcome => ({
      kind: 'form',
      status,
      userCode,
      csrfToken: this.csrf.tokenFor(session),
      problem,
    });
    const refusal = await this.guesses.admit(session, address);
    if (refusal !== undefined) {
      return again(429, `Too many codes were entered. Wait ${refusal.resetSeconds} seconds, then try again.`);
    }
    const code = typeof typed === 'string' ? normalizeUserCode(typed) : undefined;
    if (code === undefined) return again(400, WRONG_CODE);
    const check = await this.devices.check(session, code);
    switch (check.outcome) {
      case 'session-expired':
        return toLogin(formatUserCode(code), true);
      case 'unknown':
        return again(400, WRONG_CODE);
      case 'prompt': {
        const { prompt } = check;
        return {
          kind: 'consent',
          view: {
            clientName: prompt.clientName,
            scopes: prompt.scopes,
            user: prompt.user,
            parameters: { user_code: prompt.userCode },
            csrfToken: this.decisionToken(session, code),
            returnTo: devicePath(prompt.userCode),
            action: '/device/decision',
            outcome: `Only approve if your device shows the code ${prompt.userCode}. It will then be signed in as you.`,
          },
        };
      }
    }
  }

  /** `POST /device/decision`: the consent page's answer. */
  async decide(
    session: string | undefined,
    token: unknown,
    typed: unknown,
    decision: unknown,
  ): Promise<DeviceOutcome> {
    const code = typeof typed === 'string' ? normalizeUserCode(typed) : undefined;
    if (session === undefined) return toLogin(code === undefined ? '' : formatUserCode(code), false);
    // The token binds the code to this session: a decision is only on a code this session entered.
    if (code === undefined || !this.csrf.matches(`${session}${DECISION_TOKEN}${code}`, token)) {
      throw new DomainError(
        'forbidden',
        'This form could not be verified: its security token is missing or does not belong to your session and code. Nothing was authorized. Please enter the code again.',
      );
    }
    if (decision !== 'approve' && decision !== 'deny') {
      throw new DomainError('validation_failed', 'Choose Approve or Deny.');
    }
    const answer = await this.devices.decide(session, code, decision === 'approve');
    switch (answer.outcome) {
      case 'session-expired':
        return toLogin(formatUserCode(code), true);
      case 'unknown':
        return {
          kind: 'form',
          status: 400,
          userCode: formatUserCode(code),
          csrfToken: this.csrf.tokenFor(session),
          problem: WRONG_CODE,
        };
      case 'decided':
        return { kind: 'decided', status: answer.status };
    }
  }

  private refuseForgery(session: string, csrfToken: unknown): void {
    if (!this.csrf.matches(session, csrfToken)) {
      throw new DomainError(
        'forbidden',
        'This form could not be verified: its security token is missing or does not belong to your session. Please start again from the device page.',
      );
    }
  }

  private decisionToken(session: string, code: string): string {
    return this.csrf.tokenFor(`${session}${DECISION_TOKEN}${code}`);
  }
}

/** Separates the session from the code in the decision token's MAC input. */
const DECISION_TOKEN = '\u0000device\u0000';

/** The code as typed, cut to a length no code exceeds, for refilling the form. */
function displayed(typed: string): string {
  const code = normalizeUserCode(typed);
  return code === undefined ? typed.slice(0, 32) : formatUserCode(code);
}

function devicePath(userCode: string): string {
  return userCode === '' ? '/device' : `/device?${new URLSearchParams({ user_code: userCode }).toString()}`;
}

function toLogin(userCode: string, sessionEnded: boolean): DeviceOutcome {
  return {
    kind: 'login',
    location: `/auth/login?${new URLSearchParams({ return_to: devicePath(userCode) }).toString()}`,
    sessionEnded,
  };
}
