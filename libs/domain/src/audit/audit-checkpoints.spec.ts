import { createLocalJWKSet, jwtVerify } from 'jose';
import { createTestEngine, expectDomainError, TEST_ISSUER } from '../testing/in-memory-stores';
import { AUDIT_CHECKPOINT_TYP, AuditCheckpoints } from './audit-checkpoints';
import type { AuditEventInput } from './audit-record';
import { verifyInclusion } from './merkle';

const event = (target: string): AuditEventInput => ({
  tenant: 'acme',
  actorKind: 'app',
  actorId: 'ledger',
  action: 'ledger.closed',
  target,
  outcome: 'success',
  occurredAt: new Date('2026-11-25T10:00:00.000Z'),
  correlationId: null,
  attributes: {},
});

async function setUp() {
  const engine = await createTestEngine();
  const checkpoints = new AuditCheckpoints(engine.stores.audit, engine.keys, TEST_ISSUER, engine.clock);
  const append = (count: number) =>
    engine.stores.audit.appendAuditRecords(Array.from({ length: count }, (_, i) => event(`period-${i}`)));
  return { ...engine, checkpoints, append };
}

describe(AuditCheckpoints.name, () => {
  it('signs the tree head of the whole log with the platform key', async () => {
    const { checkpoints, append, keys } = await setUp();
    await append(5);

    const checkpoint = await checkpoints.checkpoint();

    const { payload, protectedHeader } = await jwtVerify(
      checkpoint!.signed,
      createLocalJWKSet(keys.publicJwks()),
      {
        issuer: TEST_ISSUER,
        typ: AUDIT_CHECKPOINT_TYP,
      },
    );
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({ tree_size: 5, root_hash: checkpoint!.rootHash });
    await expect(checkpoints.latest()).resolves.toEqual(checkpoint);
  });

  it('makes a new checkpoint only when the log has grown', async () => {
    const { checkpoints, append } = await setUp();
    await expect(checkpoints.checkpoint()).resolves.toBeNull();
    await append(2);
    const first = await checkpoints.checkpoint();

    await expect(checkpoints.checkpoint()).resolves.toEqual(first);
    await append(1);
    await expect(checkpoints.checkpoint()).resolves.toMatchObject({ treeSize: 3 });
  });

  it('proves each record is in the checkpoint, and nothing outside it', async () => {
    const { checkpoints, append } = await setUp();
    await expectDomainError(checkpoints.inclusionProof(1), 'conflict');
    await append(7);
    const { rootHash } = (await checkpoints.checkpoint())!;
    await append(1);

    for (let sequenceId = 1; sequenceId <= 7; sequenceId++) {
      const proof = await checkpoints.inclusionProof(sequenceId);
      expect(proof).toMatchObject({ sequenceId, treeSize: 7, leafIndex: sequenceId - 1, rootHash });
      const path = proof.auditPath.map((hash) => Buffer.from(hash, 'hex'));
      expect(
        verifyInclusion(
          Buffer.from(proof.leafHash, 'hex'),
          proof.leafIndex,
          7,
          path,
          Buffer.from(rootHash, 'hex'),
        ),
      ).toBe(true);
    }
    await expectDomainError(checkpoints.inclusionProof(8), 'not_found');
  });
});
