import { AuditClient, PlatformClient, ProblemError, ServiceTokenSource } from '@platform/sdk';
import { adminToken, discover, registerApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

/** Its own tenant: other files write records into the shared platform too. */
const TENANT = 'sdk-audit';

describe('AuditClient (SDK)', () => {
  let platform: TestPlatform;
  let writer: AuditClient;
  let admin: AuditClient;

  const auditClient = (clientId: string, clientSecret: string) =>
    new AuditClient(
      new PlatformClient({
        baseUrl: platform.baseUrl,
        tokens: new ServiceTokenSource({ baseUrl: platform.baseUrl, clientId, clientSecret }),
      }),
    );

  beforeAll(async () => {
    platform = sharedPlatform();
    const app = await registerApp(platform, await adminToken(await discover(platform), platform), {
      client_id: 'sdk-ledger',
      declared_scopes: ['audit.write', 'audit.read'],
    });
    writer = auditClient(app.client_id, app.client_secret!);
    admin = auditClient(platform.admin.clientId, platform.admin.clientSecret);
  });

  it('writes, reads, verifies and proves records through the SDK', async () => {
    const written = await writer.emit(TENANT, {
      action: 'ledger.closed',
      target: 'period-1',
      attributes: { entries: 3 },
    });
    await writer.emit(null, { action: 'ledger.rebuilt' });

    const page = await writer.listTenantRecords(TENANT, { action: 'ledger.closed' });
    expect(page.records).toEqual([written]);
    await expect(admin.verify()).resolves.toMatchObject({ valid: true, first_invalid: null });
    await expect(
      admin.verify({ from: written.sequence_id, through: written.sequence_id }),
    ).resolves.toMatchObject({
      valid: true,
      checked: 1,
    });

    const made = await admin.checkpoint();
    const checkpoint = await writer.latestCheckpoint();
    expect(checkpoint).toEqual(made);
    const proof = await admin.inclusionProof(written.sequence_id);
    expect(proof).toMatchObject({ sequence_id: written.sequence_id, root_hash: checkpoint.root_hash });
  });

  it('surfaces refusals as ProblemError with the status and detail', async () => {
    const refused = writer.emit(TENANT, { action: 'Not An Action' });
    await expect(refused).rejects.toBeInstanceOf(ProblemError);
    await expect(refused).rejects.toMatchObject({ status: 400 });
    await expect(writer.verify()).rejects.toMatchObject({ status: 403 });
  });
});
