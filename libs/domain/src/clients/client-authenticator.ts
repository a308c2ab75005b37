import { clientAuthMethodOf, type Application, type ApplicationStore } from '../registry/application';
import { OAuthError } from '../errors';
import type { FederatedWorkload } from '../federation/workload-federation';
import type { ClientAssertionVerifier } from './client-assertion';
import type { PresentedClientCredentials } from './client-credentials';
import { generateClientSecret, type SecretHasher } from './secret-hasher';

export interface AuthenticatedClient {
  app: Application;
  /**
   * Whether the client proved who it is: with its secret, or with a private_key_jwt assertion
   * (or a workload token the grant verified). False for a client that presented only its
   * client_id (public client).
   */
  authenticatedWithSecret: boolean;
  /** Set when a workload's token was the credential (RFC 7523 section 2.1, docs/workload-identity.md). */
  federation?: FederatedWorkload;
}

/**
 * Checks presented credentials against the registry, the one place every endpoint that
 * authenticates clients goes through (token, introspection, revocation, device authorization). A
 * client that presents a secret must present the right one; a client registered for
 * private_key_jwt must present a valid assertion (and nothing else: it holds no secret); whether
 * a client may present nothing is the caller's decision (`presentedOwnCredentials`).
 */
export class ClientAuthenticator {
  /** Reads of an app started in the current turn of the event loop, by client_id. */
  private readonly readsThisTurn = new Map<string, Promise<Application | null>>();
  private dummy: Promise<string> | undefined;

  constructor(
    private readonly applications: Pick<ApplicationStore, 'findApplication'>,
    private readonly hasher: SecretHasher,
    /** private_key_jwt (RFC 7523 section 2.2); absent: assertions are refused. */
    private readonly assertions?: ClientAssertionVerifier,
  ) {}

  async authenticate(credentials: PresentedClientCredentials): Promise<AuthenticatedClient> {
    const app = await this.application(credentials.clientId);
    if (credentials.assertion !== undefined) {
      // No argon2 here: a signature check and one shared insert of the jti.
      if (!app || clientAuthMethodOf(app) !== 'private_key_jwt' || this.assertions === undefined) {
        throw invalidClient();
      }
      await this.assertions.verify(app, credentials.assertion);
      return { app, authenticatedWithSecret: true };
    }
    if (credentials.clientSecret === undefined) {
      if (!app) throw invalidClient();
      return { app, authenticatedWithSecret: false };
    }
    // A secret is always verified, for an unknown client or one without a secret against a dummy
    // hash: the answer takes as long whether the client_id exists or not.
    const hash = app?.secretHash ?? (await this.dummyHash());
    const verified = await this.hasher.verify(hash, credentials.clientSecret);
    if (!verified || !app?.secretHash) throw invalidClient();
    return { app, authenticatedWithSecret: true };
  }

  /** A hash of a random secret, made once by the hasher that makes the apps' hashes (same cost). */
  private dummyHash(): Promise<string> {
    this.dummy ??= this.hasher.hash(generateClientSecret());
    return this.dummy;
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
    if (!presentedOwnCredentials(client)) throw invalidClient();
    return client.app;
  }
}

/**
 * RFC 6749 section 3.2.1: a client that holds a secret or registered keys (confidential)
 * authenticates with them; only a client registered with neither (public) may identify itself by
 * client_id alone.
 */
export function presentedOwnCredentials(client: AuthenticatedClient): boolean {
  return client.authenticatedWithSecret || clientAuthMethodOf(client.app) === 'none';
}

const invalidClient = () => new OAuthError('invalid_client', 'client authentication failed');
