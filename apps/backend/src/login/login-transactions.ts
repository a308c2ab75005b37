import { LOGIN_TRANSACTION_TTL_SECONDS } from '../browser/cookies';
import type { SealedBox } from '../browser/sealed-box';
import type { LoginTransaction } from './identity-provider.client';

/** Login transactions sealed for their cookie, and opened again only when intact and recent. */
export class LoginTransactions {
  constructor(private readonly box: SealedBox) {}

  seal(transaction: LoginTransaction): string {
    return this.box.seal(transaction, LOGIN_TRANSACTION_TTL_SECONDS);
  }

  open(sealed: string | undefined): LoginTransaction | undefined {
    const value = this.box.open(sealed);
    return isLoginTransaction(value) ? value : undefined;
  }
}

function isLoginTransaction(value: unknown): value is LoginTransaction {
  if (typeof value !== 'object' || value === null) return false;
  const { state, nonce, codeVerifier, returnTo, app } = value as Record<string, unknown>;
  return [state, nonce, codeVerifier, returnTo].every(isText) && (app === undefined || isAppLogin(app));
}

function isAppLogin(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { clientId, codeChallenge, state } = value as Record<string, unknown>;
  return isText(clientId) && isText(codeChallenge) && (state === undefined || isText(state));
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
