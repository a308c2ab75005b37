import type { Application } from '../application';
import { OAuthError } from '../errors';
import type { ApplicationStore } from '../storage';
import type { PresentedClientCredentials } from './client-credentials';
import type { SecretHasher } from './secret-hasher';

export interface AuthenticatedClient {
  app: Application;
  /** False for a client that presented only its client_id (public client). */
  authenticatedWithSecret: boolean;
}

/**
 * Checks presented credentials against the registry. A client that presents a secret must
 * present the right one; whether a client may present none is the caller's decision.
 */
export class ClientAuthenticator {
  /** Reads of an app started in the current turn of the event loop, by client_id. */
  private readonly readsThisTurn = new Map<string, Promise<Application | null>>();

  constructor(
    private readonly applications: Pick<ApplicationStore, 'findApplication'>,
    private readonly hasher: SecretHasher,
  ) {}

  async authenticate(credentials: PresentedClientCredentials): Promise<AuthenticatedClient> {
    const app = await this.application(credentials.clientId);
    if (!app) throw invalidClient();
    if (credentials.clientSecret === undefined) return { app, authenticatedWithSecret: false };
    if (app.secretHash === null || !(await this.hasher.verify(app.secretHash, credentials.clientSecret))) {
      throw invalidClient();
    }
    return { app, authenticatedWithSecret: true };
  }

  /**
   * The registered app. Requests that arrive together (a backend's batch of token requests,
   * mostly from a few clients) read it once: a read is shared only within the turn that started
   * it, so a request arriving after a change to the app always sees the change.
   */
  private application(clientId: string): Promise<Application | null> {
    let read = this.readsThisTurn.get(clientId);
    if (read === undefined) {
      if (this.readsThisTurn.size === 0) queueMicrotask(() => this.readsThisTurn.clear());
      read = this.applications.findApplication(clientId);
      this.readsThisTurn.set(clientId, read);
    }
    return read;
  }

  /** For endpoints where every client must prove its identity (introspection). */
  async authenticateConfidential(credentials: PresentedClientCredentials): Promise<Application> {
    const client = await this.authenticate(credentials);
    if (!client.authenticatedWithSecret) throw invalidClient();
    return client.app;
  }

  /**
   * Confidential clients prove themselves with their secret; a client that has none (spa)
   * identifies itself by client_id alone, as RFC 7009 section 2.1 allows for revocation.
   */
  async authenticateOwnSecretOrPublic(credentials: PresentedClientCredentials): Promise<Application> {
    const client = await this.authenticate(credentials);
    if (!client.authenticatedWithSecret && client.app.secretHash !== null) throw invalidClient();
    return client.app;
  }
}

const invalidClient = () => new OAuthError('invalid_client', 'client authentication failed');
