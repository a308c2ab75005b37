import type {
  AuditCheckpointDto,
  AuditConsistencyProofDto,
  AuditInclusionProofDto,
  AuditRecordDto,
  AuditRecordPageDto,
  AuditVerificationDto,
} from '@platform/contract';
import { merkleLeafHash, merkleRoot, verifyConsistency, verifyInclusion } from '@platform/domain';
import { createHash } from 'node:crypto';
import { canonicalize } from 'json-canonicalize';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { identityOf as identity, signIn } from '../../support/internal-consent';
import {
  adminToken,
  clientCredentialsToken,
  discover,
  registerApp,
  type RegisteredApp,
} from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';

const GENESIS = '0'.repeat(64);

/** The hash rule of docs/audit.md, recomputed here from the record's JSON alone. */
function expectedHash(record: AuditRecordDto): string {
  const { previous_hash: previous, record_hash: _ignored, ...body } = record;
  return createHash('sha256').update(previous).update(canonicalize(body)).digest('hex');
}

describe('the audit log', () => {
  let platform: TestPlatform;
  let admin: string;
  let writer: RegisteredApp;
  let writerToken: string;
  let bystanderToken: string;
  let console_: RegisteredApp;

  beforeAll(async () => {
    platform = await startPlatform();
    const as = await discover(platform);
    admin = await adminToken(as, platform);
    writer = await registerApp(platform, admin, {
      client_id: 'billing-worker',
      declared_scopes: ['audit.write', 'audit.read'],
    });
    const bystander = await registerApp(platform, admin, {
      client_id: 'report-job',
      declared_scopes: ['jobs.read'],
    });
    writerToken = (
      await clientCredentialsToken(as, { clientId: writer.client_id, clientSecret: writer.client_secret! })
    ).access_token;
    bystanderToken = (
      await clientCredentialsToken(as, {
        clientId: bystander.client_id,
        clientSecret: bystander.client_secret!,
      })
    ).access_token;
    console_ = await registerApp(platform, admin, {
      client_id: 'audit-console',
      app_type: 'web',
      declared_scopes: ['audit.write', 'audit.read'],
      redirect_uris: ['http://127.0.0.1:9/auth/callback'],
    });
  });
  afterAll(() => platform?.stop());

  const emit = (token: string, body: unknown, tenant?: string) =>
    fetch(`${platform.baseUrl}/api/v1/${tenant === undefined ? '' : `tenants/${tenant}/`}audit/records`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const get = (token: string, path: string) =>
    fetch(`${platform.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const adminPage = async (query: string) =>
    (await (await get(admin, `/api/v1/audit/records?${query}`)).json()) as AuditRecordPageDto;

  it('appends an application’s record to the chain, with the application as actor', async () => {
    const response = await emit(
      writerToken,
      { action: 'invoice.paid', target: 'invoice-42', attributes: { amount: 12.5, currency: 'EUR' } },
      'acme',
    );

    expect(response.status).toBe(201);
    const record = (await response.json()) as AuditRecordDto;
    expect(record).toMatchObject({
      tenant: 'acme',
      actor: { kind: 'app', id: 'billing-worker' },
      action: 'invoice.paid',
      target: 'invoice-42',
      outcome: 'success',
      attributes: { amount: 12.5, currency: 'EUR' },
      correlation_id: response.headers.get('x-request-id'),
    });
    expect(record.record_hash).toBe(expectedHash(record));
  });

  it('writes platform-wide records for an application, and a user’s into its own tenant only', async () => {
    const platformWide = await emit(writerToken, { action: 'batch.finished', outcome: 'failure' });
    expect(platformWide.status).toBe(201);
    expect(await platformWide.json()).toMatchObject({ tenant: null, outcome: 'failure' });

    const tenantAdmin = (
      await signIn(platform, console_, { identity: identity('ada', 'acme', ['tenant_admin']) })
    ).tokens.access_token;
    const own = await emit(tenantAdmin, { action: 'report.exported' }, 'acme');
    expect(own.status).toBe(201);
    expect(await own.json()).toMatchObject({ actor: { kind: 'user' }, tenant: 'acme' });
    const other = await emit(tenantAdmin, { action: 'report.exported' }, 'globex');
    expect(other.status).toBe(403);
  });

  it('refuses a caller without audit.write (403) and malformed records (400), writing nothing', async () => {
    const before = (await adminPage('limit=1000')).records;
    const last = Math.max(0, ...before.map((record) => record.sequence_id));

    const refused = await emit(bystanderToken, { action: 'invoice.paid' }, 'acme');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: 'insufficient_scope' });
    for (const body of [
      { action: 'Invoice Paid' },
      { action: 'invoice.paid', attributes: { nested: { no: 1 } } },
      { action: 'invoice.paid', outcome: 'maybe' },
      { action: 'invoice.paid', target: 'x'.repeat(257) },
      { target: 'no-action' },
    ]) {
      const response = await emit(writerToken, body, 'acme');
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    // Compared by author, not by count: the platform's own records (a sign-in's, written after
    // its answer) may land meanwhile.
    const written = (await adminPage('limit=1000')).records.filter(
      (record) => record.sequence_id > last && [writer.client_id, 'report-job'].includes(record.actor.id),
    );
    expect(written).toEqual([]);
  });

  it('audits the platform’s own actions: registration and every token it issues', async () => {
    const { jti } = decodeJwt(writerToken);

    const registered = await adminPage('action=app.registered&target=billing-worker');
    const issued = await adminPage(`action=token.issued&target=${jti}`);

    expect(registered.records).toHaveLength(1);
    expect(registered.records[0]).toMatchObject({ actor: { kind: 'platform' } });
    expect(issued.records).toHaveLength(1);
    expect(issued.records[0]).toMatchObject({
      actor: { kind: 'app', id: 'billing-worker' },
      attributes: { client_id: 'billing-worker', jti },
    });
  });

  it('audits logins, consents, role changes, scope definitions and key rotations, naming who did them', async () => {
    const { user } = await signIn(platform, console_, {
      identity: identity('grace', 'acme', ['tenant_admin']),
      scope: 'audit.read audit.write',
    });
    const asAdmin = (method: 'POST' | 'PUT', path: string, body?: unknown) =>
      fetch(`${platform.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const scope = { name: 'ledger.close', description: 'Close a ledger period' };
    expect((await asAdmin('POST', '/api/v1/scopes', scope)).status).toBe(201);
    expect((await asAdmin('POST', '/api/v1/keys/rotate')).status).toBe(201);
    const other = await signIn(platform, console_, { identity: identity('linus', 'acme', ['user']) });
    const roles = { roles: ['viewer'] };
    expect((await asAdmin('PUT', `/api/v1/tenants/acme/users/${other.user.id}/roles`, roles)).status).toBe(
      200,
    );

    const of = async (action: string) => (await adminPage(`action=${action}`)).records;
    expect(await of('user.login')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actor: { kind: 'user', id: user.id }, tenant: 'acme' }),
      ]),
    );
    expect(await of('consent.approved')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actor: { kind: 'user', id: user.id }, target: 'audit-console' }),
      ]),
    );
    expect(await of('token.issued')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actor: { kind: 'user', id: user.id }, tenant: 'acme' }),
      ]),
    );
    expect(await of('scope.defined')).toEqual([
      expect.objectContaining({
        actor: { kind: 'app', id: platform.admin.clientId },
        target: 'ledger.close',
      }),
    ]);
    expect(await of('signing_key.rotated')).toEqual([
      expect.objectContaining({ actor: { kind: 'app', id: platform.admin.clientId } }),
    ]);
    expect(await of('user.roles_changed')).toEqual([
      expect.objectContaining({
        actor: { kind: 'app', id: platform.admin.clientId },
        target: other.user.id,
        tenant: 'acme',
        attributes: { from: 'user', to: 'viewer' },
      }),
    ]);
  });

  it('lets a tenant read its own records only, and pages with a cursor', async () => {
    const page = (await (
      await get(writerToken, '/api/v1/tenants/acme/audit/records?limit=1')
    ).json()) as AuditRecordPageDto;
    expect(page.records).toHaveLength(1);
    expect(page.records[0].tenant).toBe('acme');
    const next = (await (
      await get(writerToken, `/api/v1/tenants/acme/audit/records?after=${page.next_after}`)
    ).json()) as AuditRecordPageDto;
    expect(next.records.every((r) => r.tenant === 'acme' && r.sequence_id > page.next_after)).toBe(true);

    expect((await get(bystanderToken, '/api/v1/tenants/acme/audit/records')).status).toBe(403);
    expect((await get(writerToken, '/api/v1/audit/records')).status).toBe(403);
    expect((await get(writerToken, '/api/v1/tenants/acme/audit/records?since=yesterday')).status).toBe(400);
  });

  it('verifies the whole chain and a range, every hash recomputable from the records', async () => {
    const all = (await adminPage('limit=1000')).records;
    expect(all.map((r) => r.sequence_id)).toEqual(all.map((_, i) => i + 1));
    expect(all[0].previous_hash).toBe(GENESIS);
    all.forEach((record, i) => {
      expect(record.record_hash).toBe(expectedHash(record));
      if (i > 0) expect(record.previous_hash).toBe(all[i - 1].record_hash);
    });

    const whole = (await (await get(admin, '/api/v1/audit/verify')).json()) as AuditVerificationDto;
    expect(whole).toEqual({
      valid: true,
      checked: all.length,
      from: 1,
      through: all.length,
      first_invalid: null,
    });
    const range = (await (
      await get(admin, '/api/v1/audit/verify?from=2&through=3')
    ).json()) as AuditVerificationDto;
    expect(range).toMatchObject({ valid: true, checked: 2, from: 2, through: 3 });
    expect((await get(writerToken, '/api/v1/audit/verify')).status).toBe(403);
  });

  it('publishes a signed checkpoint and proves records are in it', async () => {
    const made = await fetch(`${platform.baseUrl}/api/v1/audit/checkpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(made.status).toBe(201);
    const checkpoint = (await made.json()) as AuditCheckpointDto;
    const published = await fetch(`${platform.baseUrl}/v1/audit/checkpoint`);
    expect(published.status).toBe(200);
    expect(await published.json()).toEqual(checkpoint);

    const jwks = createRemoteJWKSet(new URL(`${platform.baseUrl}/v1/jwks`));
    const { payload } = await jwtVerify(checkpoint.signed, jwks, { typ: 'audit-checkpoint+jwt' });
    expect(payload).toMatchObject({ tree_size: checkpoint.tree_size, root_hash: checkpoint.root_hash });

    const records = (await adminPage(`limit=1000`)).records.slice(0, checkpoint.tree_size);
    const leaves = records.map((r) => merkleLeafHash(Buffer.from(r.record_hash, 'hex')));
    expect(merkleRoot(leaves).toString('hex')).toBe(checkpoint.root_hash);
    for (const sequenceId of [1, Math.ceil(checkpoint.tree_size / 2), checkpoint.tree_size]) {
      const proof = (await (
        await get(admin, `/api/v1/audit/records/${sequenceId}/inclusion`)
      ).json()) as AuditInclusionProofDto;
      expect(proof.leaf_hash).toBe(leaves[sequenceId - 1].toString('hex'));
      const path = proof.audit_path.map((hash) => Buffer.from(hash, 'hex'));
      const root = Buffer.from(checkpoint.root_hash, 'hex');
      expect(verifyInclusion(leaves[sequenceId - 1], sequenceId - 1, checkpoint.tree_size, path, root)).toBe(
        true,
      );
    }
    expect((await get(admin, `/api/v1/audit/records/${checkpoint.tree_size + 1000}/inclusion`)).status).toBe(
      404,
    );

    // The log grows; the next checkpoint proves it only grew since the one kept above.
    await emit(writerToken, { action: 'invoice.paid', target: 'after-the-checkpoint' }, 'acme');
    const later = (await (
      await fetch(`${platform.baseUrl}/api/v1/audit/checkpoints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}` },
      })
    ).json()) as AuditCheckpointDto;
    const consistency = (await (
      await get(admin, `/api/v1/audit/consistency?from=${checkpoint.tree_size}`)
    ).json()) as AuditConsistencyProofDto;
    expect(consistency).toMatchObject({
      from: checkpoint.tree_size,
      to: later.tree_size,
      root_hash: later.root_hash,
    });
    const consistent = verifyConsistency(
      checkpoint.tree_size,
      later.tree_size,
      consistency.proof.map((hash) => Buffer.from(hash, 'hex')),
      Buffer.from(checkpoint.root_hash, 'hex'),
      Buffer.from(later.root_hash, 'hex'),
    );
    expect(consistent).toBe(true);
    expect((await get(admin, `/api/v1/audit/consistency?from=${later.tree_size + 1}`)).status).toBe(400);
    expect((await get(admin, `/api/v1/audit/consistency`)).status).toBe(400);
    expect((await get(writerToken, `/api/v1/audit/records/1/inclusion`)).status).toBe(403);
    const notANumber = await get(admin, `/api/v1/audit/records/first/inclusion`);
    expect(notANumber.status).toBe(400);
    expect(notANumber.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
