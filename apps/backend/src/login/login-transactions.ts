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
  const { state, nonce, codeVerifier, returnTo, clientId } = value as Record<string, unknown>;
  return (
    [state, nonce, codeVerifier, returnTo].every((field) => typeof field === 'string' && field !== '') &&
    (clientId === undefined || (typeof clientId === 'string' && clientId !== ''))
  );
}
