import type { AuditRecordPageDto } from '@platform/contract';
import * as oauth from 'oauth4webapi';
import { jwtVerify, createRemoteJWKSet } from 'jose';
import {
  adminToken,
  basic,
  clientCredentialsToken,
  discover,
  postForm,
  registerApp,
  type RegisteredApp,
} from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

type ServiceApp = RegisteredApp & { client_secret: string };

/**
 * The backend sends the token requests of one turn to the control plane in one call
 * (docs/internal-api.md, "Token batches"): many clients at once must each get exactly their own
 * answer, status and headers, and their own audit record. Its own apps on the shared platform.
 */
describe('token requests batched between the backend and the control plane', () => {
  let platform: TestPlatform;
  let as: oauth.AuthorizationServer;
  let admin: string;
  let apps: ServiceApp[];

  beforeAll(async () => {
    platform = sharedPlatform();
    as = await discover(platform);
    admin = await adminToken(as, platform);
    apps = [];
    for (const [name, scope] of [
      ['a', 'jobs.read'],
      ['b', 'files.read'],
      ['c', 'files.write'],
    ]) {
      apps.push(
        (await registerApp(platform, admin, {
          client_id: `batch-${name}`,
          declared_scopes: [scope],
        })) as ServiceApp,
      );
    }
  });

  const batch = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${platform.controlPlaneUrl}/internal/v1/oauth/token-batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-token': platform.internalToken, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('answers 60 concurrent clients, good and bad, each with its own token or refusal', async () => {
    const jwks = createRemoteJWKSet(new URL(as.jwks_uri!));
    const attempts = Array.from({ length: 60 }, (_, n) => ({ app: apps[n % 3], kind: n % 4 }));
    const answers = await Promise.all(
      attempts.map(({ app, kind }, n) => {
        const headers = { 'x-request-id': `batch-e2e-${n}` };
        if (kind === 0)
          return postForm(
            `${platform.baseUrl}/v1/oauth/token`,
            { grant_type: 'client_credentials' },
            { ...headers, authorization: basic(app.client_id, app.client_secret) },
          );
        if (kind === 1)
          return postForm(
            `${platform.baseUrl}/v1/oauth/token`,
            {
              grant_type: 'client_credentials',
              client_id: app.client_id,
              client_secret: app.client_secret,
              scope: app.declared_scopes[0],
            },
            headers,
          );
        if (kind === 2)
          return postForm(
            `${platform.baseUrl}/v1/oauth/token`,
            { grant_type: 'client_credentials' },
            { ...headers, authorization: basic(app.client_id, 'wrong') },
          );
        return postForm(
          `${platform.baseUrl}/v1/oauth/token`,
          {
            grant_type: 'client_credentials',
            client_id: app.client_id,
            client_secret: app.client_secret,
            scope: 'not-declared',
          },
          headers,
        );
      }),
    );
    for (const [n, response] of answers.entries()) {
      const { app, kind } = attempts[n];
      expect(response.headers.get('x-request-id')).toBe(`batch-e2e-${n}`);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = (await response.json()) as Record<string, unknown>;
      if (kind <= 1) {
        expect(response.status).toBe(200);
        const { payload } = await jwtVerify(body.access_token as string, jwks, { issuer: as.issuer });
        expect(payload).toMatchObject({ client_id: app.client_id, scope: app.declared_scopes[0] });
      } else if (kind === 2) {
        expect(response.status).toBe(401);
        expect(body).toMatchObject({ error: 'invalid_client' });
        expect(response.headers.get('www-authenticate')).toBe('Basic realm="oauth"');
      } else {
        expect(response.status).toBe(400);
        expect(body).toMatchObject({ error: 'invalid_scope' });
      }
    }

    // Each issued token's audit record carries the id of the request that asked for it.
    // Its own apps' records (the actor of a client_credentials token is its app): the log is shared.
    const pages = await Promise.all(
      apps.map(
        async (app) =>
          (await (
            await fetch(
              `${platform.baseUrl}/api/v1/audit/records?action=token.issued&actor=${app.client_id}&limit=1000`,
              { headers: { authorization: `Bearer ${admin}` } },
            )
          ).json()) as AuditRecordPageDto,
      ),
    );
    const issued = pages
      .flatMap((page) => page.records)
      .filter((record) => record.correlation_id?.startsWith('batch-e2e-'));
    const expected = attempts.flatMap(({ app, kind }, n) =>
      kind <= 1 ? [[`batch-e2e-${n}`, app.client_id]] : [],
    );
    expect(issued.map((record) => [record.correlation_id, record.attributes.client_id]).sort()).toEqual(
      expected.sort(),
    );
  });

  it('answers each request of a call in order, as the control plane would answer it alone', async () => {
    const [a, b] = apps;
    const response = await batch({
      requests: [
        {
          form: 'grant_type=client_credentials',
          authorization: basic(a.client_id, a.client_secret),
          request_id: 'one',
        },
        {
          form: 'grant_type=client_credentials',
          authorization: basic(b.client_id, 'wrong'),
          request_id: 'two',
        },
        { form: `grant_type=password&client_id=${b.client_id}`, request_id: 'three' },
        { form: 'grant_type=client_credentials&grant_type=client_credentials', request_id: 'four' },
      ],
    });
    expect(response.status).toBe(200);
    const { answers } = (await response.json()) as {
      answers: Array<{ status: number; headers: Record<string, string>; body: Record<string, unknown> }>;
    };
    expect(answers.map((answer) => [answer.status, answer.body.error ?? 'issued'])).toEqual([
      [200, 'issued'],
      [401, 'invalid_client'],
      [400, 'unsupported_grant_type'],
      [400, 'invalid_request'],
    ]);
    expect(answers[0].body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(answers[1].headers['www-authenticate']).toBe('Basic realm="oauth"');
    for (const answer of answers) expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('takes a call of 64 requests with a 64 KiB form in it, beyond the routes’ usual body limit', async () => {
    const [a] = apps;
    const one = {
      form: 'grant_type=client_credentials',
      authorization: basic(a.client_id, a.client_secret),
      request_id: 'r',
    };
    const large = { ...one, form: `grant_type=client_credentials&scope=${'x'.repeat(64 * 1024 - 40)}` };
    const response = await batch({ requests: [large, ...Array.from({ length: 63 }, () => one)] });
    expect(response.status).toBe(200);
    const { answers } = (await response.json()) as {
      answers: Array<{ status: number; body: { error?: string } }>;
    };
    expect(answers).toHaveLength(64);
    expect(answers[0]).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    expect(answers.slice(1).every((answer) => answer.status === 200)).toBe(true);
  });

  it('refuses a call without the internal token, and a malformed one, as a whole', async () => {
    const one = { form: 'grant_type=client_credentials', request_id: 'r' };
    expect((await batch({ requests: [one] }, { 'x-internal-token': 'wrong' })).status).toBe(401);
    for (const body of [
      '{"requests":',
      { requests: [] },
      { requests: 'grant_type=client_credentials' },
      { requests: [{ ...one, request_id: 'has spaces' }] },
      { requests: [{ request_id: 'r' }] },
      { requests: Array.from({ length: 65 }, () => one) },
    ]) {
      const response = await batch(body);
      expect(response.status).toBe(400);
    }
    // The rule broken, by where: the body is checked by its DTO's compiled schema.
    const refused = await batch({ requests: [one, { ...one, request_id: 'has spaces' }] });
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await refused.json()).toMatchObject({
      status: 400,
      detail: expect.stringMatching(/^body\/requests\/1\/request_id must match pattern/),
    });
  });

  it('issues to ten concurrent oauth4webapi clients ten distinct tokens', async () => {
    const [, , c] = apps;
    const tokens = await Promise.all(
      Array.from({ length: 10 }, () =>
        clientCredentialsToken(as, { clientId: c.client_id, clientSecret: c.client_secret }),
      ),
    );
    expect(new Set(tokens.map((token) => token.access_token)).size).toBe(10);
  });
});
