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
  constructor(
    private readonly applications: Pick<ApplicationStore, 'findApplication'>,
    private readonly hasher: SecretHasher,
  ) {}

  async authenticate(credentials: PresentedClientCredentials): Promise<AuthenticatedClient> {
    const app = await this.applications.findApplication(credentials.clientId);
    if (!app) throw invalidClient();
    if (credentials.clientSecret === undefined) return { app, authenticatedWithSecret: false };
    if (app.secretHash === null || !(await this.hasher.verify(app.secretHash, credentials.clientSecret))) {
      throw invalidClient();
    }
    return { app, authenticatedWithSecret: true };
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
