import type { PlatformClient } from './platform-client';
import type { SecretMetadata, SecretNamesPage, SecretsRewrap, SecretValue, SecretVersion } from './wire';

/**
 * A tenant's secrets (docs/secrets.md): `secrets.write` to write and remove, `secrets.read` to
 * read values and metadata; rewrap after a KEK rotation with an admin token.
 */
export class SecretsClient {
  constructor(readonly client: PlatformClient) {}

  /** Writes the next version; `cas`: only if the current version is this one (0: a new secret). */
  write(tenant: string, name: string, value: string, options: { cas?: number } = {}): Promise<SecretVersion> {
    return this.client.json<SecretVersion>(secretPath(tenant, name), {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ value, cas: options.cas }),
    });
  }

  /** The current version's value, or `version`'s. */
  read(tenant: string, name: string, version?: number): Promise<SecretValue> {
    const query = version === undefined ? '' : `?version=${version}`;
    return this.client.json<SecretValue>(`${secretPath(tenant, name)}${query}`);
  }

  metadata(tenant: string, name: string): Promise<SecretMetadata> {
    return this.client.json<SecretMetadata>(`${secretPath(tenant, name)}/metadata`);
  }

  /** One page of names; pass `next_after` back as `after`. */
  list(tenant: string, page: { after?: string; limit?: number } = {}): Promise<SecretNamesPage> {
    const query = new URLSearchParams();
    if (page.after !== undefined) query.set('after', page.after);
    if (page.limit !== undefined) query.set('limit', String(page.limit));
    const suffix = query.size > 0 ? `?${query}` : '';
    return this.client.json<SecretNamesPage>(
      `/api/v1/tenants/${encodeURIComponent(tenant)}/secrets${suffix}`,
    );
  }

  /** Soft-deletes a version (undelete brings it back). */
  async deleteVersion(tenant: string, name: string, version: number): Promise<void> {
    await this.client.json(`${secretPath(tenant, name)}/versions/${version}`, { method: 'DELETE' });
  }

  async undeleteVersion(tenant: string, name: string, version: number): Promise<void> {
    await this.client.json(`${secretPath(tenant, name)}/versions/${version}/undelete`, { method: 'POST' });
  }

  /** Erases a version's value for good. */
  async destroyVersion(tenant: string, name: string, version: number): Promise<void> {
    await this.client.json(`${secretPath(tenant, name)}/versions/${version}/destroy`, { method: 'POST' });
  }

  /** Removes the secret and every version. */
  async delete(tenant: string, name: string): Promise<void> {
    await this.client.json(secretPath(tenant, name), { method: 'DELETE' });
  }

  /** After a KEK rotation: moves every data key under the current KEK (admin). */
  rewrap(): Promise<SecretsRewrap> {
    return this.client.json<SecretsRewrap>('/api/v1/secrets/rewrap', { method: 'POST' });
  }
}

const secretPath = (tenant: string, name: string) =>
  `/api/v1/tenants/${encodeURIComponent(tenant)}/secrets/${encodeURIComponent(name)}`;
