import { Inject, Injectable } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import { LocalRevocation } from '../auth/local-revocation';
import { ControlPlaneClient, type UpstreamResponse } from '../clients/control-plane.client';
import { PLATFORM_CONFIG } from '../config';
import type { Caller } from '../http/caller';
import { publicAppsUrl, rewriteAppsLink } from './link-header';

const JSON_TYPE = 'application/json';

/** Pass-through query parameters, by route; anything else is dropped. */
const LIST_APPS_QUERY = ['limit', 'after'] as const;
const TOKEN_EVENTS_QUERY = ['after', 'limit', 'client_id'] as const;

/**
 * The application registry, scopes and token events live in the control plane, which checks
 * the admin token again itself; the backend forwards the caller's Authorization header and
 * translates the control plane's addresses into its own.
 */
@Injectable()
export class AppsService {
  constructor(
    private readonly controlPlane: ControlPlaneClient,
    private readonly localRevocation: LocalRevocation,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  async register(body: string, caller: Caller): Promise<UpstreamResponse> {
    return this.publicAddresses(await this.call(caller, 'POST', '/api/v1/apps', { body }));
  }

  async list(query: Record<string, unknown>, caller: Caller): Promise<UpstreamResponse> {
    return this.publicAddresses(
      await this.call(caller, 'GET', '/api/v1/apps', { query: pick(query, LIST_APPS_QUERY) }),
    );
  }

  async get(clientId: string, caller: Caller): Promise<UpstreamResponse> {
    return this.publicAddresses(await this.call(caller, 'GET', appPath(clientId)));
  }

  /** Deletes the app (the control plane revokes its tokens); this backend refuses them at once. */
  async delete(clientId: string, caller: Caller): Promise<UpstreamResponse> {
    const response = await this.call(caller, 'DELETE', appPath(clientId));
    if (response.status >= 200 && response.status < 300) {
      await this.localRevocation.applyNow(caller.requestId);
    }
    return response;
  }

  async rotateSecret(clientId: string, caller: Caller): Promise<UpstreamResponse> {
    return this.call(caller, 'POST', `${appPath(clientId)}/rotate-secret`);
  }

  async defineScope(body: string, caller: Caller): Promise<UpstreamResponse> {
    return this.call(caller, 'POST', '/api/v1/scopes', { body });
  }

  async listScopes(caller: Caller): Promise<UpstreamResponse> {
    return this.call(caller, 'GET', '/api/v1/scopes');
  }

  async tokenEvents(query: Record<string, unknown>, caller: Caller): Promise<UpstreamResponse> {
    return this.call(caller, 'GET', '/api/v1/token-events', { query: pick(query, TOKEN_EVENTS_QUERY) });
  }

  async rotateSigningKey(caller: Caller): Promise<UpstreamResponse> {
    return this.call(caller, 'POST', '/api/v1/keys/rotate');
  }

  private call(
    caller: Caller,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options: { body?: string; query?: URLSearchParams } = {},
  ): Promise<UpstreamResponse> {
    return this.controlPlane.request({
      method,
      path,
      query: options.query,
      requestId: caller.requestId,
      authorization: caller.authorization,
      ...(options.body !== undefined ? { contentType: JSON_TYPE, body: options.body } : {}),
    });
  }

  private publicAddresses(response: UpstreamResponse): UpstreamResponse {
    const { link, location } = response.headers;
    if (link !== undefined) response.headers.link = rewriteAppsLink(link, this.config.issuer);
    if (location !== undefined) {
      const rewritten = publicAppsUrl(location, this.config.issuer);
      if (rewritten === undefined) delete response.headers.location;
      else response.headers.location = rewritten;
    }
    return response;
  }
}

const appPath = (clientId: string): string => `/api/v1/apps/${encodeURIComponent(clientId)}`;

function pick(query: Record<string, unknown>, names: readonly string[]): URLSearchParams {
  const picked = new URLSearchParams();
  for (const name of names) {
    const value = query[name];
    if (typeof value === 'string') picked.set(name, value);
  }
  return picked;
}
