import type { AuditRecordDto, AuditVerificationDto } from '@platform/contract';
import { encodePrincipal, INTERNAL_TOKEN_HEADER, PRINCIPAL_HEADER } from '@platform/internal';
import { adminToken, discover } from '../../support/oauth';
import { startControlPlaneReplica, startPlatform, type TestPlatform } from '../../support/platform';
import { createScratchDatabase, describeOnPostgres, type ScratchDatabase } from '../../support/postgres';

describeOnPostgres('two control-plane replicas on one database', () => {
  let platform: TestPlatform;
  let database: ScratchDatabase;
  let replica: { url: string; stop(): Promise<void> };

  beforeAll(async () => {
    database = await createScratchDatabase();
    platform = await startPlatform({ databaseUrl: database.url });
    replica = await startControlPlaneReplica(platform);
  });
  afterAll(async () => {
    await replica?.stop();
    await platform?.stop();
    await database?.drop();
  });

  it('keeps sequence ids gap-free and the chain verifying under concurrent writers on both', async () => {
    const principal = encodePrincipal({ sub: 'ledger', client_id: 'ledger', scope: 'audit.write' });
    const append = (controlPlaneUrl: string, target: string) =>
      fetch(`${controlPlaneUrl}/internal/v1/tenants/acme/audit/records`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [INTERNAL_TOKEN_HEADER]: platform.internalToken,
          [PRINCIPAL_HEADER]: principal,
        },
        body: JSON.stringify({ action: 'ledger.closed', target }),
      }).then(async (response) => {
        expect(response.status).toBe(201);
        return (await response.json()) as AuditRecordDto;
      });
    const writer = async (url: string, name: string) => {
      const written: AuditRecordDto[] = [];
      for (let i = 0; i < 25; i++) written.push(await append(url, `${name}-${i}`));
      return written;
    };

    const written = (
      await Promise.all(
        [platform.controlPlaneUrl, replica.url].flatMap((url, r) =>
          Array.from({ length: 4 }, (_, w) => writer(url, `replica${r}-writer${w}`)),
        ),
      )
    ).flat();

    // Nothing else writes meanwhile: the 200 records take 200 consecutive sequence ids.
    const ids = written.map((r) => r.sequence_id).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 200 }, (_, i) => ids[0] + i));
    const admin = await adminToken(await discover(platform), platform);
    const verification = (await (
      await fetch(`${platform.baseUrl}/api/v1/audit/verify`, {
        headers: { authorization: `Bearer ${admin}` },
      })
    ).json()) as AuditVerificationDto;
    expect(verification).toMatchObject({ valid: true, first_invalid: null });
    expect(verification.checked).toBeGreaterThanOrEqual(ids[199]);
  });

  it('publishes a key rotated through the other replica within a second, not at its 30 s reload', async () => {
    const publishedByReplica = async () => {
      const { keys } = (await (await fetch(`${replica.url}/api/v1/jwks`)).json()) as {
        keys: Array<{ kid: string }>;
      };
      return keys.map((key) => key.kid);
    };
    const admin = await adminToken(await discover(platform), platform);
    const rotated = await fetch(`${platform.baseUrl}/api/v1/keys/rotate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(rotated.status).toBe(201);
    const { kid } = (await rotated.json()) as { kid: string };
    const deadline = Date.now() + 1_000;

    while (!(await publishedByReplica()).includes(kid)) {
      if (Date.now() > deadline) throw new Error('the replica still publishes the old key set');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
});
