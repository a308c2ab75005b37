import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import {
  createSecretServiceClient,
  type ResolveSecretResult,
  type SecretServiceClient,
} from '@platform/grpc';
import Database from 'better-sqlite3';
import { identityOf, signIn } from '../../support/internal-consent';
import { adminToken, clientCredentialsToken, discover, registerApp } from '../../support/oauth';
import { unaryCall } from '../../support/grpc';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

/** Its own tenants and apps on the shared platform: it writes, audits and tampers with ACME's secrets. */
const ACME = 'secrets-acme';
const GLOBEX = 'secrets-globex';

/** Values no log, audit record, error or database page may hold in the clear. */
const VALUE_1 = `pw-one-${randomBytes(12).toString('hex')}`;
const VALUE_2 = `pw-two-${randomBytes(12).toString('hex')}`;
const VALUE_3 = `pw-three-${randomBytes(12).toString('hex')}`;

describe('secrets over REST and gRPC', () => {
  let platform: TestPlatform;
  let secrets: SecretServiceClient;
  let admin: string;
  let writer: string;
  let reader: string;
  let bystander: string;
  let acmeUser: string;

  beforeAll(async () => {
    platform = sharedPlatform();
    const as = await discover(platform);
    admin = await adminToken(as, platform);
    const token = async (clientId: string, scopes: string[]) => {
      const app = await registerApp(platform, admin, { client_id: clientId, declared_scopes: scopes });
      return (await clientCredentialsToken(as, { clientId, clientSecret: app.client_secret! })).access_token;
    };
    writer = await token('secrets-deployer', ['secrets.read', 'secrets.write']);
    reader = await token('secrets-billing-worker', ['secrets.read']);
    bystander = await token('secrets-thumbnailer', ['files.read']);
    const portal = await registerApp(platform, admin, {
      client_id: 'secrets-portal',
      app_type: 'web',
      declared_scopes: ['secrets.read'],
      redirect_uris: ['http://127.0.0.1:9/secrets/callback'],
    });
    acmeUser = (await signIn(platform, portal, { identity: identityOf('secrets-ada', ACME, ['user']) }))
      .tokens.access_token;
    secrets = createSecretServiceClient(platform.sidecarAddress);
  });
  afterAll(async () => {
    secrets?.close();
  });

  const rest = (token: string | null, method: string, path: string, body?: unknown) =>
    fetch(`${platform.baseUrl}/api/v1/tenants${path}`, {
      method,
      headers: {
        ...(token && { authorization: `Bearer ${token}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const resolve = (request: Record<string, unknown>) =>
    unaryCall<ResolveSecretResult>((metadata, options, done) =>
      secrets.ResolveSecret(request, metadata, options, done),
    );

  it('writes versions with check-and-set and reads the current one or a named one', async () => {
    const first = await rest(writer, 'PUT', `/${ACME}/secrets/db-password`, { value: VALUE_1, cas: 0 });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ name: 'db-password', version: 1, created_at: expect.any(String) });

    const stale = await rest(writer, 'PUT', `/${ACME}/secrets/db-password`, { value: VALUE_2, cas: 0 });
    expect(stale.status).toBe(409);
    const problem = await stale.text();
    expect(problem).toContain('the current version of db-password is 1, not 0');
    expect(problem).not.toContain(VALUE_2);

    expect(
      (await rest(writer, 'PUT', `/${ACME}/secrets/db-password`, { value: VALUE_2, cas: 1 })).status,
    ).toBe(200);
    const current = await rest(reader, 'GET', `/${ACME}/secrets/db-password`);
    expect(await current.json()).toMatchObject({ name: 'db-password', version: 2, value: VALUE_2 });
    const named = await rest(reader, 'GET', `/${ACME}/secrets/db-password?version=1`);
    expect(await named.json()).toMatchObject({ version: 1, value: VALUE_1 });

    const metadata = await (await rest(reader, 'GET', `/${ACME}/secrets/db-password/metadata`)).json();
    expect(metadata).toMatchObject({
      name: 'db-password',
      current_version: 2,
      versions: [
        { version: 1, deleted_at: null, destroyed: false },
        { version: 2, deleted_at: null, destroyed: false },
      ],
    });
    expect(JSON.stringify(metadata)).not.toContain(VALUE_1);
    expect(await (await rest(reader, 'GET', `/${ACME}/secrets`)).json()).toEqual({
      names: ['db-password'],
      next_after: null,
    });
  });

  it('soft-deletes, undeletes and destroys versions, and deletes a secret', async () => {
    await rest(writer, 'PUT', `/${ACME}/secrets/api-key`, { value: 'k1' });
    await rest(writer, 'PUT', `/${ACME}/secrets/api-key`, { value: 'k2' });

    expect((await rest(writer, 'DELETE', `/${ACME}/secrets/api-key/versions/2`)).status).toBe(204);
    expect((await rest(reader, 'GET', `/${ACME}/secrets/api-key`)).status).toBe(404);
    expect((await rest(writer, 'POST', `/${ACME}/secrets/api-key/versions/2/undelete`)).status).toBe(204);
    expect(await (await rest(reader, 'GET', `/${ACME}/secrets/api-key`)).json()).toMatchObject({
      value: 'k2',
    });

    expect((await rest(writer, 'POST', `/${ACME}/secrets/api-key/versions/1/destroy`)).status).toBe(204);
    expect((await rest(reader, 'GET', `/${ACME}/secrets/api-key?version=1`)).status).toBe(404);
    expect((await rest(writer, 'POST', `/${ACME}/secrets/api-key/versions/1/undelete`)).status).toBe(409);
    expect((await rest(writer, 'POST', `/${ACME}/secrets/api-key/versions/9/destroy`)).status).toBe(404);

    expect((await rest(writer, 'DELETE', `/${ACME}/secrets/api-key`)).status).toBe(204);
    expect((await rest(reader, 'GET', `/${ACME}/secrets/api-key/metadata`)).status).toBe(404);
    expect((await rest(writer, 'DELETE', `/${ACME}/secrets/api-key`)).status).toBe(404);
  });

  it('refuses bad input with a 400 that says why', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['PUT', `/${ACME}/secrets/db-password`, { value: 42 }],
      ['PUT', `/${ACME}/secrets/db-password`, { value: 'x', cas: -1 }],
      ['PUT', `/${ACME}/secrets/db-password`, { value: 'x'.repeat(32_769) }],
      ['PUT', `/${ACME}/secrets/bad%20name`, { value: 'x' }],
      ['GET', `/${ACME}/secrets/db-password?version=zero`, undefined],
      ['DELETE', `/${ACME}/secrets/db-password/versions/one`, undefined],
    ];
    for (const [method, path, body] of cases) {
      const response = await rest(writer, method, path, body);
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 400 });
      expect(response.headers.get('content-type')).toContain('application/problem+json');
    }
    const huge = await rest(writer, 'PUT', `/${ACME}/secrets/db-password`, { value: 'x'.repeat(70_000) });
    expect(huge.status).toBe(413);
  });

  it('enforces the scopes and the tenant through the policy service', async () => {
    expect((await rest(null, 'GET', `/${ACME}/secrets/db-password`)).status).toBe(401);
    const readOnly = await rest(reader, 'PUT', `/${ACME}/secrets/db-password`, { value: 'nope' });
    expect(readOnly.status).toBe(403);
    expect(readOnly.headers.get('www-authenticate')).toContain('insufficient_scope');
    expect((await rest(bystander, 'GET', `/${ACME}/secrets/db-password`)).status).toBe(403);

    expect((await rest(acmeUser, 'GET', `/${ACME}/secrets/db-password`)).status).toBe(200);
    expect((await rest(acmeUser, 'GET', `/${GLOBEX}/secrets/db-password`)).status).toBe(403);
    expect((await rest(acmeUser, 'PUT', `/${ACME}/secrets/db-password`, { value: 'x' })).status).toBe(403);
  });

  it('ResolveSecret answers by reference or by name, and a new version at once', async () => {
    const byReference = await resolve({ token: reader, reference: `secret://${ACME}/db-password` });
    expect(byReference.error).toBeNull();
    expect(byReference.response).toMatchObject({
      tenant: ACME,
      name: 'db-password',
      version: 2,
      value: VALUE_2,
    });

    const pinned = await resolve({ token: reader, reference: `secret://${ACME}/db-password#1` });
    expect(pinned.response).toMatchObject({ version: 1, value: VALUE_1 });
    const ownTenant = await resolve({ token: acmeUser, name: 'db-password' });
    expect(ownTenant.response).toMatchObject({ tenant: ACME, version: 2 });

    await rest(writer, 'PUT', `/${ACME}/secrets/db-password`, { value: VALUE_3 });
    const changed = await resolve({ token: reader, tenant: ACME, name: 'db-password' });
    expect(changed.response).toMatchObject({ version: 3, value: VALUE_3 });
  });

  it('ResolveSecret refuses in gRPC terms, never with the value', async () => {
    const cases: Array<[Record<string, unknown>, grpc.status]> = [
      [{ token: reader, reference: `${ACME}/db-password` }, grpc.status.INVALID_ARGUMENT],
      [{ token: reader, reference: `secret://${ACME}/db-password`, name: 'x' }, grpc.status.INVALID_ARGUMENT],
      [{ token: reader }, grpc.status.INVALID_ARGUMENT],
      [{ token: reader, name: 'db-password' }, grpc.status.INVALID_ARGUMENT],
      [{ token: '', reference: `secret://${ACME}/db-password` }, grpc.status.INVALID_ARGUMENT],
      [{ token: 'not-a-token', reference: `secret://${ACME}/db-password` }, grpc.status.UNAUTHENTICATED],
      [{ token: bystander, reference: `secret://${ACME}/db-password` }, grpc.status.PERMISSION_DENIED],
      [{ token: acmeUser, reference: `secret://${GLOBEX}/db-password` }, grpc.status.PERMISSION_DENIED],
      [{ token: reader, reference: `secret://${ACME}/nothing-here` }, grpc.status.NOT_FOUND],
      [{ token: reader, reference: `secret://${ACME}/db-password#99` }, grpc.status.NOT_FOUND],
    ];
    for (const [request, code] of cases) {
      const { error } = await resolve(request);
      expect({ request, code: error?.code }).toEqual({ request, code });
      expect(error?.details).not.toContain(VALUE_3);
    }
  });

  it('audits every read with who and which version, and no value', async () => {
    const response = await fetch(
      `${platform.baseUrl}/api/v1/audit/records?tenant=${ACME}&action=secret.read&limit=1000`,
      { headers: { authorization: `Bearer ${admin}` } },
    );
    const { records } = (await response.json()) as {
      records: Array<{ actor: { id: string }; target: string; attributes: { version: number } }>;
    };
    const reads = records.map((r) => `${r.actor.id} ${r.target}#${r.attributes.version}`);
    expect(reads).toEqual(
      expect.arrayContaining([
        'secrets-billing-worker db-password#2',
        'secrets-billing-worker db-password#1',
      ]),
    );
    expect(reads).toContain('secrets-billing-worker db-password#3');

    const all = await fetch(`${platform.baseUrl}/api/v1/audit/records?tenant=${ACME}&limit=1000`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const text = await all.text();
    expect(text).toContain('secret.written');
    for (const value of [VALUE_1, VALUE_2, VALUE_3]) expect(text).not.toContain(value);
  });

  it('refuses a value whose row was swapped with another version’s, in REST and gRPC', async () => {
    const db = new Database(join(platform.dataDir, 'platform.sqlite'));
    const row = (version: number) =>
      db
        .prepare(
          'SELECT ciphertext, wrapped_key FROM secret_versions WHERE tenant = ? AND name = ? AND version = ?',
        )
        .get(ACME, 'db-password', version) as { ciphertext: string; wrapped_key: string };
    const one = row(1);
    db.prepare(
      'UPDATE secret_versions SET ciphertext = ?, wrapped_key = ? WHERE tenant = ? AND name = ? AND version = ?',
    ).run(one.ciphertext, one.wrapped_key, ACME, 'db-password', 2);
    db.close();

    const swapped = await rest(reader, 'GET', `/${ACME}/secrets/db-password?version=2`);
    expect(swapped.status).toBe(503);
    const body = await swapped.text();
    expect(body).not.toContain(VALUE_1);
    expect(body).not.toContain(VALUE_2);
    const { error } = await resolve({ token: reader, reference: `secret://${ACME}/db-password#2` });
    expect(error?.code).toBe(grpc.status.UNAVAILABLE);
  });

  it('keeps values out of the database file and every log line', async () => {
    const files = readdirSync(platform.dataDir).filter(
      (f) => f.endsWith('.log') || f.startsWith('platform.sqlite'),
    );
    expect(files).toEqual(expect.arrayContaining(['platform.log', 'platform.sqlite']));
    for (const file of files) {
      const content = readFileSync(join(platform.dataDir, file)).toString('latin1');
      for (const value of [VALUE_1, VALUE_2, VALUE_3]) {
        expect({ file, leaked: content.includes(value) }).toEqual({ file, leaked: false });
      }
    }
  });
});
