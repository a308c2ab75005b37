import type { AuditRecordDto, AuditRecordPageDto, AuditVerificationDto } from '@platform/contract';
import { decodeJwt } from 'jose';
import { adminToken, clientCredentialsToken, discover, postForm, registerApp } from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';
import { createScratchDatabase, postgresSuiteEnabled, type ScratchDatabase } from '../../support/postgres';

/**
 * kill -9 of the control plane while records are being written: every record a caller was
 * answered for is still there after the restart, with the same hash, and the chain verifies.
 */
const databases: Array<{ name: string; scratch?: () => Promise<ScratchDatabase> }> = [
  { name: 'SQLite' },
  ...(postgresSuiteEnabled('the audit durability suite on Postgres')
    ? [{ name: 'Postgres', scratch: createScratchDatabase }]
    : []),
];

describe.each(databases)('the audit log survives a crash of the control plane ($name)', ({ scratch }) => {
  let platform: TestPlatform;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const database = scratch ? await scratch() : undefined;
    drop = database?.drop;
    platform = await startPlatform(database ? { databaseUrl: database.url } : {});
  });
  afterAll(async () => {
    await platform?.stop();
    await drop?.();
  });

  it('keeps every acknowledged record and issued token’s record, and the chain verifies', async () => {
    const as = await discover(platform);
    const app = await registerApp(platform, await adminToken(as, platform), {
      client_id: 'crash-writer',
      declared_scopes: ['audit.write'],
    });
    const token = (
      await clientCredentialsToken(as, { clientId: app.client_id, clientSecret: app.client_secret! })
    ).access_token;
    const acknowledged: AuditRecordDto[] = [];
    const issuedJtis: string[] = [];
    let writing = true;

    const writer = async (worker: number) => {
      for (let i = 0; writing; i++) {
        const response = await fetch(`${platform.baseUrl}/api/v1/tenants/acme/audit/records`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ action: 'crash.test', target: `w${worker}-${i}` }),
        }).catch(() => undefined);
        if (response?.status === 201) acknowledged.push((await response.json()) as AuditRecordDto);
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const issuer = async () => {
      while (writing) {
        const { status, body } = await postForm(`${platform.baseUrl}/v1/oauth/token`, {
          grant_type: 'client_credentials',
          client_id: app.client_id,
          client_secret: app.client_secret!,
        })
          .then(async (r) => ({ status: r.status, body: (await r.json()) as { access_token?: string } }))
          .catch(() => ({ status: 0, body: {} as { access_token?: string } }));
        if (status === 200 && body.access_token) issuedJtis.push(decodeJwt(body.access_token).jti!);
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    // Twelve issuers at once: the backend sends their requests in batches, and the kill falls on some.
    const load = [
      ...Array.from({ length: 8 }, (_, w) => writer(w)),
      ...Array.from({ length: 12 }, () => issuer()),
    ];

    await new Promise((resolve) => setTimeout(resolve, 400));
    await platform.killProcess('control-plane');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await platform.restartProcess('control-plane');
    await new Promise((resolve) => setTimeout(resolve, 400));
    writing = false;
    await Promise.all(load);

    const admin = await adminToken(as, platform);
    const stored: AuditRecordDto[] = [];
    for (let after = 0; ;) {
      const page = (await (
        await fetch(`${platform.baseUrl}/api/v1/audit/records?limit=1000&after=${after}`, {
          headers: { authorization: `Bearer ${admin}` },
        })
      ).json()) as AuditRecordPageDto;
      stored.push(...page.records);
      if (page.records.length < 1000) break;
      after = page.next_after;
    }
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(issuedJtis.length).toBeGreaterThan(12);
    const bySequence = new Map(stored.map((r) => [r.sequence_id, r]));
    for (const record of acknowledged) expect(bySequence.get(record.sequence_id)).toEqual(record);
    const auditedJtis = new Set(stored.filter((r) => r.action === 'token.issued').map((r) => r.target));
    expect(issuedJtis.filter((jti) => !auditedJtis.has(jti))).toEqual([]);
    expect(stored.map((r) => r.sequence_id)).toEqual(stored.map((_, i) => i + 1));
    const verification = (await (
      await fetch(`${platform.baseUrl}/api/v1/audit/verify`, {
        headers: { authorization: `Bearer ${admin}` },
      })
    ).json()) as AuditVerificationDto;
    expect(verification).toMatchObject({ valid: true, checked: stored.length });
  });
});
