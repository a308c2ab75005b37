import { randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { type AuditServiceClient, createAuditServiceClient } from '@platform/grpc';
import type * as oauth from 'oauth4webapi';
import { SCIM_KEY_MAX_LENGTH } from '@platform/domain';
import { unaryCall } from '../../support/grpc';
import {
  adminToken,
  basic,
  clientCredentialsToken,
  discover,
  postForm,
  registerApp,
} from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';
import { platformDatabases } from '../../support/databases';
import { barbara, provisioningToken, SCIM, scimClient } from '../../support/scim';

/** Text no column of either database may be asked to store or look up (docs/security.md "Hostile input"). */
const NUL = '\u0000';
const LONE_SURROGATE = '\ud800';

/**
 * The edge's one rule on text, the same answers on SQLite and Postgres (which cannot hold 0x00 in
 * text at all): a NUL or a lone surrogate is bad input in the route's error format, never a
 * 500 nor (on SQLite) a stored name; opaque values (secrets, job payloads) round-trip exactly.
 */
describe.each(platformDatabases('the hostile text suite'))(
  'hostile text at the edge on $name',
  (database) => {
    let platform: TestPlatform;
    let drop: () => Promise<void>;
    let as: oauth.AuthorizationServer;
    let admin: string;
    let worker: { clientId: string; clientSecret: string };
    let tenantToken: string;

    beforeAll(async () => {
      const db = await database.create();
      drop = db.drop;
      platform = await startPlatform({
        ...(db.url && { databaseUrl: db.url }),
        env: { SECRETS_KEK: randomBytes(32).toString('base64') },
      });
      as = await discover(platform);
      admin = await adminToken(as, platform);
      const app = await registerApp(platform, admin, {
        client_id: 'hostile-worker',
        declared_scopes: ['secrets.read', 'secrets.write', 'jobs.read', 'jobs.write', 'audit.write'],
      });
      worker = { clientId: app.client_id, clientSecret: app.client_secret! };
      tenantToken = (await clientCredentialsToken(as, worker)).access_token;
    });
    afterAll(async () => {
      await platform?.stop();
      await drop?.();
    });

    const oauthRefusal = async (response: Response) => ({
      status: response.status,
      type: response.headers.get('content-type'),
      body: (await response.json()) as unknown,
    });
    const INVALID_REQUEST = {
      status: 400,
      type: expect.stringMatching(/^application\/json/),
      body: { error: 'invalid_request', error_description: expect.any(String) },
    };

    it.each(['token', 'introspect', 'revoke'])(
      'refuses a NUL in client_id at /v1/oauth/%s as invalid_request',
      async (endpoint) => {
        const form = {
          grant_type: 'client_credentials',
          token: 'x',
          client_id: `${NUL}abc`,
          client_secret: 's',
        };
        expect(await oauthRefusal(await postForm(`${platform.baseUrl}/v1/oauth/${endpoint}`, form))).toEqual(
          INVALID_REQUEST,
        );
        const inBasic = await postForm(
          `${platform.baseUrl}/v1/oauth/${endpoint}`,
          { grant_type: 'client_credentials', token: 'x' },
          { authorization: basic(`${NUL}abc`, 's') },
        );
        expect(await oauthRefusal(inBasic)).toEqual(INVALID_REQUEST);
      },
    );

    it('refuses a NUL or a lone surrogate in a SCIM userName as invalidValue, and stores nothing', async () => {
      const token = await provisioningToken(platform, as, admin, 'hostile-idp', 'acme');
      const scim = scimClient(platform.baseUrl, token);
      for (const userName of [`ada${NUL}@example.com`, `ada${LONE_SURROGATE}@example.com`]) {
        const created = await scim('POST', '/Users', barbara(userName, `ext-${userName.length}`));
        expect({ status: created.status, body: created.body as unknown }).toEqual({
          status: 400,
          body: expect.objectContaining({ schemas: [SCIM.error], status: '400', scimType: 'invalidValue' }),
        });
      }
      const listed = await scim('GET', '/Users');
      expect(listed.body).toMatchObject({ totalResults: 0 });
    });

    it('takes a userName and externalId up to the SCIM limit, and refuses longer ones as invalidValue', async () => {
      // Random, so Postgres cannot compress it under its ~2,700-byte index entry bound: that was a 500.
      const random = (length: number) => randomBytes(length).toString('base64url').slice(0, length);
      const scim = scimClient(
        platform.baseUrl,
        await provisioningToken(platform, as, admin, 'long-idp', 'globex'),
      );
      for (const body of [barbara(random(3000), 'ext-long'), barbara('long@example.com', random(3000))]) {
        const refused = await scim('POST', '/Users', body);
        expect({ status: refused.status, body: refused.body as unknown }).toEqual({
          status: 400,
          body: expect.objectContaining({
            scimType: 'invalidValue',
            detail: expect.stringContaining(`at most ${SCIM_KEY_MAX_LENGTH}`),
          }),
        });
      }
      const longest = random(SCIM_KEY_MAX_LENGTH);
      expect((await scim('POST', '/Users', barbara(longest, longest))).status).toBe(201);
    });

    it('refuses a NUL in a path or query parameter as problem+json', async () => {
      const headers = { authorization: `Bearer ${admin}` };
      for (const url of [`/v1/oauth/apps/${encodeURIComponent(`${NUL}x`)}`, `/v1/oauth/apps?after=%00`]) {
        const response = await fetch(`${platform.baseUrl}${url}`, { headers });
        expect({ url, status: response.status, type: response.headers.get('content-type') }).toEqual({
          url,
          status: 400,
          type: expect.stringMatching(/^application\/problem\+json/),
        });
      }
    });

    it('keeps a secret value and a job payload holding a NUL exactly', async () => {
      const rest = (method: string, path: string, body?: unknown) =>
        fetch(`${platform.baseUrl}/api/v1/tenants/acme${path}`, {
          method,
          headers: {
            authorization: `Bearer ${tenantToken}`,
            ...(body !== undefined && { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const value = `a${NUL}b${NUL}🦄`;
      expect((await rest('PUT', '/secrets/binary', { value })).status).toBe(200);
      expect(await (await rest('GET', '/secrets/binary')).json()).toMatchObject({ value });

      const payload = { note: `x${NUL}y`, [`k${NUL}`]: [NUL] };
      const submitted = await rest('POST', '/jobs', { type: 'hostile.echo', payload });
      expect(submitted.status).toBe(201);
      const { id } = (await submitted.json()) as { id: string };
      expect(await (await rest('GET', `/jobs/${id}`)).json()).toMatchObject({ payload });
      // In a batch the payloads are opaque too; the other members are not.
      const batch = await rest('POST', '/jobs/batch', { jobs: [{ type: 'hostile.echo', payload }] });
      expect(batch.status).toBe(200);
      const [{ job }] = ((await batch.json()) as { results: Array<{ job: { id: string } }> }).results;
      expect(await (await rest('GET', `/jobs/${job.id}`)).json()).toMatchObject({ payload });
      const badType = await rest('POST', '/jobs/batch', { jobs: [{ type: `hostile${NUL}`, payload: null }] });
      expect(badType.status).toBe(400);
      expect(badType.headers.get('content-type')).toMatch(/^application\/problem\+json/);

      const surrogate = await rest('PUT', '/secrets/broken', { value: `a${LONE_SURROGATE}` });
      expect(surrogate.status).toBe(400);
    });

    it('refuses a NUL in a gRPC string field as INVALID_ARGUMENT, escaped in JSON text too', async () => {
      const client: AuditServiceClient = createAuditServiceClient(platform.sidecarAddress);
      const emit = (fields: Record<string, string>) =>
        unaryCall((metadata, options, done) =>
          client.EmitAuditEvent(
            { token: tenantToken, tenant: 'acme', action: 'invoice.paid', ...fields },
            metadata,
            options,
            done,
          ),
        );
      try {
        const hostile: Array<Record<string, string>> = [
          { target: `inv${NUL}1` },
          { attributes_json: '{"note":"a\\u0000b"}' },
        ];
        for (const fields of hostile) {
          const { error } = await emit(fields);
          expect({ fields, code: grpc.status[error?.code ?? grpc.status.OK] }).toEqual({
            fields,
            code: 'INVALID_ARGUMENT',
          });
        }
        expect((await emit({ target: 'inv-1' })).error).toBeNull();
      } finally {
        client.close();
      }
    });
  },
);
