import { findLink } from './link-header';
import { PlatformClient } from './platform-client';
import { ServiceTokenSource, type ServiceTokenSourceOptions } from './service-token-source';
import type {
  Application,
  ApplicationUpdate,
  DefinedScope,
  RegisterAppRequest,
  RegisteredApplication,
  RotatedSecret,
  ScopeDefinition,
} from './wire';

export interface ListAppsOptions {
  /** 1 to 1000; the platform's default when absent. */
  limit?: number;
  /** The `client_id` after which the page starts (the cursor of the previous page). */
  after?: string;
}

export interface AppPage {
  apps: Application[];
  /** The options that fetch the next page (from the `Link: rel="next"` header), absent on the last page. */
  next?: ListAppsOptions;
}

/**
 * The registry (`/v1/oauth/apps`) and custom scopes (`/api/v1/scopes`), through a client whose
 * token carries `admin.*` (or a user token with the `global_admin` role).
 */
export class AdminClient {
  constructor(readonly client: PlatformClient) {}

  /** An admin client on the service model: the admin app's credentials, token cached and refreshed. */
  static withCredentials(options: ServiceTokenSourceOptions): AdminClient {
    return new AdminClient(
      new PlatformClient({
        baseUrl: options.baseUrl,
        tokens: new ServiceTokenSource(options),
        ...(options.fetch && { fetch: options.fetch }),
      }),
    );
  }

  /** Registers an app; the answer carries `client_secret` this once (never for `spa`). */
  registerApp(app: RegisterAppRequest): Promise<RegisteredApplication> {
    return this.client.json<RegisteredApplication>('/v1/oauth/apps', jsonBody('POST', app));
  }

  /** One page of apps, and the options for the next page when the platform says there is one. */
  async listApps(options: ListAppsOptions = {}): Promise<AppPage> {
    const query = new URLSearchParams();
    if (options.limit !== undefined) query.set('limit', String(options.limit));
    if (options.after !== undefined) query.set('after', options.after);
    const search = query.toString() === '' ? '' : `?${query}`;
    const response = await this.client.request(`/v1/oauth/apps${search}`, {
      headers: { accept: 'application/json' },
    });
    const apps = (await response.json()) as Application[];
    const next = nextPage(response.headers.get('link'));
    return next === undefined ? { apps } : { apps, next };
  }

  /** Every app, page after page: `for await (const app of admin.allApps({ limit: 100 }))`. */
  async *allApps(options: ListAppsOptions = {}): AsyncGenerator<Application, void, undefined> {
    let page: ListAppsOptions | undefined = options;
    while (page !== undefined) {
      const { apps, next }: AppPage = await this.listApps(page);
      yield* apps;
      page = next;
    }
  }

  getApp(clientId: string): Promise<Application> {
    return this.client.json<Application>(appPath(clientId));
  }

  /**
   * Changes the app's part in token exchange (docs/tokens.md): its `resource_uri`, the
   * `token_exchange_audiences` it may exchange for, `impersonation_allowed`. Audited.
   */
  updateApp(clientId: string, update: ApplicationUpdate): Promise<Application> {
    return this.client.json<Application>(appPath(clientId), jsonBody('PATCH', update));
  }

  /** Deletes the app; every token it holds stops working at once. */
  async deleteApp(clientId: string): Promise<void> {
    await this.client.request(appPath(clientId), { method: 'DELETE' });
  }

  /** A new secret, shown this once; the old one fails from now on. */
  rotateSecret(clientId: string): Promise<RotatedSecret> {
    return this.client.json<RotatedSecret>(`${appPath(clientId)}/rotate-secret`, { method: 'POST' });
  }

  /** Defines a custom scope (`resource.action`), which apps may then declare. */
  defineScope(name: string, description: string): Promise<DefinedScope> {
    return this.client.json<DefinedScope>('/api/v1/scopes', jsonBody('POST', { name, description }));
  }

  /** The standard and custom scopes. */
  listScopes(): Promise<ScopeDefinition[]> {
    return this.client.json<ScopeDefinition[]>('/api/v1/scopes');
  }
}

/**
 * The cursor of the `rel="next"` link. Only its query is kept: the next page is asked of our own
 * `baseUrl`, so the admin token never follows a link to another host.
 */
export function nextPage(link: string | null | undefined): ListAppsOptions | undefined {
  const target = findLink(link, 'next');
  if (target === undefined) return undefined;
  let query: URLSearchParams;
  try {
    query = new URL(target, 'http://relative.invalid').searchParams;
  } catch {
    return undefined;
  }
  const after = query.get('after');
  if (after === null) return undefined;
  const limit = Number(query.get('limit'));
  return Number.isInteger(limit) && limit > 0 ? { limit, after } : { after };
}

const appPath = (clientId: string): string => `/v1/oauth/apps/${encodeURIComponent(clientId)}`;

function jsonBody(method: string, body: unknown): RequestInit {
  return { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
