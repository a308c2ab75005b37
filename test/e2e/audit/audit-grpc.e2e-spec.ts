import * as grpc from '@grpc/grpc-js';
import {
  createAuditServiceClient,
  DECISION_ID_METADATA,
  type AuditRecordMessage,
  type AuditServiceClient,
  type QueryAuditResponse,
} from '@platform/grpc';
import { identityOf, signIn } from '../../support/internal-consent';
import { adminToken, clientCredentialsToken, discover, registerApp } from '../../support/oauth';
import { unaryCall as call } from '../../support/grpc';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

/** Its own tenants and apps on the shared platform: it pages ACME's audit log. */
const ACME = 'audit-grpc-acme';
const GLOBEX = 'audit-grpc-globex';

describe('sidecar gRPC: AuditService', () => {
  let platform: TestPlatform;
  let audit: AuditServiceClient;
  let writer: string;
  let bystander: string;
  let acmeAdmin: string;

  beforeAll(async () => {
    platform = sharedPlatform();
    const as = await discover(platform);
    const admin = await adminToken(as, platform);
    const token = async (clientId: string, scopes: string[]) => {
      const app = await registerApp(platform, admin, { client_id: clientId, declared_scopes: scopes });
      return (await clientCredentialsToken(as, { clientId, clientSecret: app.client_secret! })).access_token;
    };
    writer = await token('audit-grpc-ledger', ['audit.write', 'audit.read']);
    bystander = await token('audit-grpc-thumbnailer', ['files.read']);
    const console_ = await registerApp(platform, admin, {
      client_id: 'audit-grpc-console',
      app_type: 'web',
      declared_scopes: ['audit.write', 'audit.read'],
      redirect_uris: ['http://127.0.0.1:9/audit-grpc/callback'],
    });
    acmeAdmin = (
      await signIn(platform, console_, { identity: identityOf('audit-grpc-ada', ACME, ['tenant_admin']) })
    ).tokens.access_token;
    audit = createAuditServiceClient(platform.sidecarAddress);
  });
  afterAll(() => audit?.close());

  const emit = (request: Record<string, unknown>) =>
    call<AuditRecordMessage>((metadata, options, done) =>
      audit.EmitAuditEvent(request, metadata, options, done),
    );
  const query = (request: Record<string, unknown>) =>
    call<QueryAuditResponse>((metadata, options, done) => audit.QueryAudit(request, metadata, options, done));

  it('EmitAuditEvent appends a record with the token’s application as actor', async () => {
    const { error, response } = await emit({
      token: writer,
      tenant: ACME,
      action: 'ledger.closed',
      target: 'period-2026-11',
      attributes_json: JSON.stringify({ entries: 1200, balanced: true }),
    });

    expect(error).toBeNull();
    expect(response).toMatchObject({
      tenant: ACME,
      actor: { kind: 'app', id: 'audit-grpc-ledger' },
      action: 'ledger.closed',
      target: 'period-2026-11',
      outcome: 'success',
      previous_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      record_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(JSON.parse(response.attributes_json)).toEqual({ entries: 1200, balanced: true });
  });

  it('EmitAuditEvent for a user writes into the user’s tenant, and is refused in another', async () => {
    const own = await emit({ token: acmeAdmin, tenant: ACME, action: 'report.exported' });
    expect(own.error).toBeNull();
    expect(own.response.actor).toMatchObject({ kind: 'user' });

    const other = await emit({ token: acmeAdmin, tenant: GLOBEX, action: 'report.exported' });
    expect(other.error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
    expect(other.error?.metadata.get(DECISION_ID_METADATA)).toHaveLength(1);
  });

  it('refuses a token without audit.write, an invalid token and a malformed record', async () => {
    const refused = await emit({ token: bystander, tenant: ACME, action: 'invoice.paid' });
    expect(refused.error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });

    const invalid = await emit({ token: 'not-a-token', tenant: ACME, action: 'invoice.paid' });
    expect(invalid.error).toMatchObject({ code: grpc.status.UNAUTHENTICATED });

    for (const request of [
      { action: 'Not An Action' },
      { action: 'invoice.paid', outcome: 'perhaps' },
      { action: 'invoice.paid', attributes_json: '{not json' },
      { action: 'invoice.paid', attributes_json: JSON.stringify({ nested: { no: true } }) },
    ]) {
      const { error } = await emit({ token: writer, tenant: ACME, ...request });
      expect(error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
    }
  });

  it('QueryAudit pages a tenant’s records for a caller with audit.read', async () => {
    const first = await query({ token: writer, tenant: ACME, limit: 1 });
    expect(first.error).toBeNull();
    expect(first.response.records).toHaveLength(1);
    expect(first.response.records[0].tenant).toBe(ACME);

    const rest = await query({ token: writer, tenant: ACME, after: first.response.next_after });
    expect(rest.response.records.map((r) => r.action)).toContain('report.exported');
    expect(rest.response.records.every((r) => r.sequence_id > first.response.next_after)).toBe(true);

    const filtered = await query({ token: writer, tenant: ACME, action: 'ledger.closed' });
    expect(filtered.response.records.map((r) => r.target)).toEqual(['period-2026-11']);

    expect((await query({ token: bystander, tenant: ACME })).error).toMatchObject({
      code: grpc.status.PERMISSION_DENIED,
    });
    expect((await query({ token: writer, tenant: '' })).error).toMatchObject({
      code: grpc.status.INVALID_ARGUMENT,
    });
  });
});
