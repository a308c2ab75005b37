import { createHash, createHmac, hkdfSync } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import {
  createMaskingServiceClient,
  type MaskingServiceClient,
  type MaskResult,
  type MaskStringResult,
} from '@platform/grpc';
import { identityOf, signIn } from '../../support/internal-consent';
import { unaryCall as call } from '../../support/grpc';
import { adminToken, clientCredentialsToken, discover, registerApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

/** Its own tenants and users on the shared platform: it sets a tenant's masking patterns. */
const ACME = 'masking-acme';
const GLOBEX = 'masking-globex';

/**
 * MaskingService over gRPC against the real sidecar: every RPC, every error path the proto names,
 * and the hash key per tenant (health and reflection: apps/sidecar/src/sidecar.grpc.spec.ts).
 */
describe('sidecar gRPC: MaskingService', () => {
  let platform: TestPlatform;
  let masking: MaskingServiceClient;
  let acme: string;
  let globex: string;
  let service: string;
  let admin: string;

  beforeAll(async () => {
    platform = sharedPlatform();
    const as = await discover(platform);
    admin = await adminToken(as, platform);
    const portal = await registerApp(platform, admin, {
      client_id: 'support-desk',
      app_type: 'web',
      declared_scopes: ['masking.apply'],
      redirect_uris: ['https://desk.example.test/callback'],
    });
    acme = (await signIn(platform, portal, { identity: identityOf('masking-ada', ACME, ['user']) })).tokens
      .access_token;
    globex = (await signIn(platform, portal, { identity: identityOf('masking-gus', GLOBEX, ['user']) }))
      .tokens.access_token;
    const worker = await registerApp(platform, admin, {
      client_id: 'log-shipper',
      declared_scopes: ['masking.apply'],
    });
    service = (
      await clientCredentialsToken(as, { clientId: worker.client_id, clientSecret: worker.client_secret! })
    ).access_token;
    masking = createMaskingServiceClient(platform.sidecarAddress);
  });
  afterAll(() => masking?.close());

  const maskString = (request: Parameters<MaskingServiceClient['MaskString']>[0]) =>
    call<MaskStringResult>((metadata, options, done) => masking.MaskString(request, metadata, options, done));
  const mask = (request: Parameters<MaskingServiceClient['Mask']>[0]) =>
    call<MaskResult>((metadata, options, done) => masking.Mask(request, metadata, options, done));

  it('MaskString masks what it detects, with the operators asked for, and says where', async () => {
    const { error, response } = await maskString({
      token: acme,
      text: 'Ada (ada@example.com, +44 20 7946 0958) paid with 4111 1111 1111 1111 on 2024-05-12, order 123456.',
      options: {
        operators: { CREDIT_CARD: { type: 'mask', keep_last: 4 }, PHONE_NUMBER: { type: 'redact' } },
      },
    });

    expect(error).toBeNull();
    expect(response.text).toBe(
      'Ada (<EMAIL_ADDRESS>, ) paid with ***************1111 on 2024-05-12, order 123456.',
    );
    expect(response.items.map((i) => [i.entity_type, i.operator])).toEqual([
      ['EMAIL_ADDRESS', 'replace'],
      ['PHONE_NUMBER', 'redact'],
      ['CREDIT_CARD', 'mask'],
    ]);
    const card = response.items[2];
    expect(response.text.slice(card.start, card.end)).toBe('***************1111');
  });

  it('hashes under a key of the caller’s tenant: equal within it, different across tenants', async () => {
    const options = { operators: { DEFAULT: { type: 'hash' } } };
    const ofAcme = await maskString({ token: acme, text: 'ada@example.com', options });
    const again = await maskString({ token: acme, text: 'ada@example.com', options });
    const ofGlobex = await maskString({ token: globex, text: 'ada@example.com', options });

    expect(ofAcme.response.text).toMatch(/^[0-9a-f]{64}$/);
    expect(again.response.text).toBe(ofAcme.response.text);
    expect(ofGlobex.response.text).not.toBe(ofAcme.response.text);
    // HMAC-SHA256 under HKDF(INTERNAL_TOKEN, tenant): a value never becomes a plain digest of itself.
    const key = Buffer.from(
      hkdfSync(
        'sha256',
        platform.internalToken,
        'oauth-platform/sidecar/masking-hash/v1',
        `tenant:${ACME}`,
        32,
      ),
    );
    expect(ofAcme.response.text).toBe(createHmac('sha256', key).update('ada@example.com').digest('hex'));
    expect(ofAcme.response.text).not.toBe(createHash('sha256').update('ada@example.com').digest('hex'));
  });

  it('Mask masks field paths whole and detects in the other values', async () => {
    const { error, response } = await mask({
      token: service,
      json: JSON.stringify({
        user: { ssn: '078-05-1120', bio: 'reach me at ada@example.com' },
        items: [{ iban: 'DE89370400440532013000' }],
      }),
      field_paths: ['user.ssn', 'items[*].iban'],
      detect_in_values: true,
      options: { operators: { FIELD: { type: 'replace', new_value: '[redacted]' } } },
    });

    expect(error).toBeNull();
    expect(JSON.parse(response.json)).toEqual({
      user: { ssn: '[redacted]', bio: 'reach me at <EMAIL_ADDRESS>' },
      items: [{ iban: '[redacted]' }],
    });
    expect(response).toMatchObject({ masked_fields: 2, masked_spans: 1 });
  });

  it('runs a custom pattern, and refuses one that could backtrack catastrophically: INVALID_ARGUMENT', async () => {
    const custom = await maskString({
      token: acme,
      text: 'badge EMP-004211',
      options: { custom_patterns: [{ name: 'EMPLOYEE_ID', regex: 'EMP-\\d{6}' }] },
    });
    expect(custom.response.text).toBe('badge <EMPLOYEE_ID>');

    const evil = await maskString({
      token: acme,
      text: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!',
      options: { custom_patterns: [{ name: 'EVIL', regex: '(a+)+$' }] },
    });
    expect(evil.error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(evil.error?.details).toMatch(/backtrack/);
  });

  it('applies a tenant’s stored custom patterns to its calls only, within a second of the change', async () => {
    const settings = (body: unknown) =>
      fetch(`${platform.baseUrl}/api/v1/tenants/${ACME}/masking`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const refused = await settings({ custom_patterns: [{ name: 'EVIL', regex: '(a+)+$' }] });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/backtrack/);

    const changed = Date.now();
    expect((await settings({ custom_patterns: [{ name: 'TICKET', regex: 'TCK-\\d{5}' }] })).status).toBe(200);
    for (;;) {
      const { response } = await maskString({ token: acme, text: 'see TCK-12345' });
      if (response?.text === 'see <TICKET>') break;
      if (Date.now() - changed > 3000) throw new Error(`not applied: ${JSON.stringify(response)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(Date.now() - changed).toBeLessThan(1000);
    expect((await maskString({ token: globex, text: 'see TCK-12345' })).response.text).toBe('see TCK-12345');
  });

  it.each([
    ['an unknown entity type', { text: 'x', options: { entities: ['SSN'] } }, /unknown entity types/],
    [
      'an unknown operator',
      { text: 'x', options: { operators: { DEFAULT: { type: 'encrypt' } } } },
      /operator/,
    ],
    ['an unknown region', { text: 'x', options: { region: 'ZZ' } }, /region/],
  ])('refuses %s: INVALID_ARGUMENT with the reason', async (_, request, reason) => {
    const { error } = await maskString({ token: acme, ...request });
    expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(error?.details).toMatch(reason);
  });

  it('refuses a document that is not JSON, and a malformed path: INVALID_ARGUMENT', async () => {
    expect((await mask({ token: acme, json: '{"a":' })).error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect((await mask({ token: acme, json: '{}', field_paths: ['a..b'] })).error?.code).toBe(
      grpc.status.INVALID_ARGUMENT,
    );
  });

  it('refuses a message over the sidecar’s 1 MiB limit: RESOURCE_EXHAUSTED, before any work', async () => {
    const { error } = await maskString({ token: acme, text: 'a'.repeat(1024 * 1024 + 1) });
    expect(error?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
  });

  it('refuses an empty token (INVALID_ARGUMENT) and an invalid one (UNAUTHENTICATED)', async () => {
    expect((await maskString({ token: '', text: 'x' })).error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect((await maskString({ token: 'not-a-jwt', text: 'x' })).error?.code).toBe(
      grpc.status.UNAUTHENTICATED,
    );
  });
});
