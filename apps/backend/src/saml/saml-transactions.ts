import { LOGIN_TRANSACTION_TTL_SECONDS } from '../browser/cookies';
import type { SealedBox } from '../browser/sealed-box';
import type { AppLoginTransaction } from '../clients/app-login.client';

/** What a SAML sign-in keeps in the browser (sealed) until the IdP's answer comes back. */
export interface SamlTransaction {
  tenant: string;
  /** The AuthnRequest's ID: the answer's InResponseTo must be this browser's. */
  requestId: string;
  /** A path on this server, or, for the app login, the app's registered callback URL. */
  returnTo: string;
  app?: AppLoginTransaction;
}

/** SAML sign-ins sealed for their cookie, opened again only when intact and recent. */
export class SamlTransactions {
  constructor(private readonly box: SealedBox) {}

  seal(transaction: SamlTransaction): string {
    return this.box.seal(transaction, LOGIN_TRANSACTION_TTL_SECONDS);
  }

  open(sealed: string | undefined): SamlTransaction | undefined {
    const value = this.box.open(sealed);
    if (typeof value !== 'object' || value === null) return undefined;
    const { tenant, requestId, returnTo, app } = value as Record<string, unknown>;
    if (![tenant, requestId, returnTo].every((text) => typeof text === 'string' && text !== ''))
      return undefined;
    if (
      app !== undefined &&
      (typeof app !== 'object' || app === null || typeof (app as AppLoginTransaction).clientId !== 'string')
    ) {
      return undefined;
    }
    return value as SamlTransaction;
  }
}
