import { AUDIT_GENESIS_HASH, verifyAuditRecords } from '@platform/domain';
import type { Contract } from '../support/contract';
import { anAuditEvent, at } from '../support/factories';

const genesis = { lastSequenceId: 0, lastHash: AUDIT_GENESIS_HASH };

export const auditStoreContract: Contract = (context) => {
  const store = () => context().stores.audit;

  it('starts an empty log at the genesis hash', async () => {
    await expect(store().auditChainHead()).resolves.toEqual(genesis);
    await expect(store().listAuditRecords({ limit: 10 })).resolves.toEqual([]);
  });

  it('chains appended records from 1, each on the hash of the one before', async () => {
    const appended = await store().appendAuditRecords([
      anAuditEvent(),
      anAuditEvent({ action: 'invoice.voided' }),
    ]);
    const more = await store().appendAuditRecords([anAuditEvent({ tenant: null, actorKind: 'platform' })]);

    const listed = await store().listAuditRecords({ limit: 10 });
    expect(listed).toEqual([...appended, ...more]);
    expect(listed.map((r) => r.sequenceId)).toEqual([1, 2, 3]);
    expect(listed[0].previousHash).toBe(AUDIT_GENESIS_HASH);
    expect(listed[1].previousHash).toBe(listed[0].recordHash);
    expect(listed[2].previousHash).toBe(listed[1].recordHash);
    expect(verifyAuditRecords(genesis, listed)).toEqual({
      valid: true,
      lastSequenceId: 3,
      lastHash: listed[2].recordHash,
    });
    await expect(store().auditChainHead()).resolves.toEqual({
      lastSequenceId: 3,
      lastHash: listed[2].recordHash,
    });
  });

  it('keeps every field as written, attributes included', async () => {
    const event = anAuditEvent({ correlationId: null, target: null });
    const [record] = await store().appendAuditRecords([event]);

    await expect(store().findAuditRecords([record.sequenceId, 99])).resolves.toEqual([
      { ...event, ...record },
    ]);
    await expect(store().findAuditRecords([])).resolves.toEqual([]);
  });

  it('finds records by sequence id, in sequence order, whatever order they are asked in', async () => {
    const written = await store().appendAuditRecords([anAuditEvent(), anAuditEvent(), anAuditEvent()]);
    const found = await store().findAuditRecords([written[2].sequenceId, written[0].sequenceId]);
    expect(found.map((r) => r.sequenceId)).toEqual([written[0].sequenceId, written[2].sequenceId]);
  });

  it('filters by tenant, actor, action, target and time, after a cursor, at most limit', async () => {
    await store().appendAuditRecords([
      anAuditEvent({ tenant: 'acme', occurredAt: at(0) }),
      anAuditEvent({ tenant: 'globex', occurredAt: at(10) }),
      anAuditEvent({ tenant: 'acme', actorId: 'user-7', actorKind: 'user', occurredAt: at(20) }),
      anAuditEvent({ tenant: 'acme', action: 'invoice.voided', target: 'invoice-9', occurredAt: at(30) }),
    ]);
    const ids = async (query: Parameters<ReturnType<typeof store>['listAuditRecords']>[0]) =>
      (await store().listAuditRecords(query)).map((r) => r.sequenceId);

    await expect(ids({ tenant: 'acme', limit: 10 })).resolves.toEqual([1, 3, 4]);
    await expect(ids({ actorId: 'user-7', limit: 10 })).resolves.toEqual([3]);
    await expect(ids({ action: 'invoice.voided', limit: 10 })).resolves.toEqual([4]);
    await expect(ids({ target: 'invoice-9', limit: 10 })).resolves.toEqual([4]);
    await expect(ids({ since: at(10), until: at(30), limit: 10 })).resolves.toEqual([2, 3]);
    await expect(ids({ after: 1, limit: 2 })).resolves.toEqual([2, 3]);
    await expect(ids({ after: 1, through: 2, limit: 10 })).resolves.toEqual([2]);
  });

  it('lists the record hashes of a range of sequence ids, in order, at most limit', async () => {
    const records = await store().appendAuditRecords([
      anAuditEvent(),
      anAuditEvent(),
      anAuditEvent(),
      anAuditEvent(),
    ]);
    const hashes = records.map((r) => r.recordHash);

    await expect(store().listAuditRecordHashes({ after: 0, through: 4, limit: 10 })).resolves.toEqual(hashes);
    await expect(store().listAuditRecordHashes({ after: 1, through: 3, limit: 10 })).resolves.toEqual(
      hashes.slice(1, 3),
    );
    await expect(store().listAuditRecordHashes({ after: 0, through: 4, limit: 2 })).resolves.toEqual(
      hashes.slice(0, 2),
    );
    await expect(store().listAuditRecordHashes({ after: 4, through: 9, limit: 10 })).resolves.toEqual([]);
  });

  it('gives the sequence ids of a rolled-back append back', async () => {
    await store().appendAuditRecords([anAuditEvent()]);
    await expect(
      context().transactor.inTransaction(async (stores) => {
        await stores.audit.appendAuditRecords([anAuditEvent(), anAuditEvent()]);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');

    const [next] = await store().appendAuditRecords([anAuditEvent()]);

    expect(next.sequenceId).toBe(2);
    expect(verifyAuditRecords(genesis, await store().listAuditRecords({ limit: 10 })).valid).toBe(true);
  });

  it('keeps the chain gap-free under 8 concurrent writers', async () => {
    await Promise.all(
      Array.from({ length: 8 }, (_, writer) =>
        (async () => {
          for (let i = 0; i < 5; i++) {
            await context().transactor.inTransaction((stores) =>
              stores.audit.appendAuditRecords([anAuditEvent({ actorId: `writer-${writer}` })]),
            );
          }
        })(),
      ),
    );

    const listed = await store().listAuditRecords({ limit: 100 });
    expect(listed.map((r) => r.sequenceId)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(verifyAuditRecords(genesis, listed).valid).toBe(true);
  });

  it('keeps one checkpoint per tree size and answers the largest', async () => {
    const checkpoint = (treeSize: number) => ({
      treeSize,
      rootHash: 'ab'.repeat(32),
      signed: `jws-${treeSize}`,
      createdAt: at(treeSize),
    });
    await expect(store().latestAuditCheckpoint()).resolves.toBeNull();

    await expect(store().insertAuditCheckpoint(checkpoint(3))).resolves.toBe('created');
    await expect(store().insertAuditCheckpoint(checkpoint(7))).resolves.toBe('created');
    await expect(
      store().insertAuditCheckpoint({ ...checkpoint(7), signed: 'another replica' }),
    ).resolves.toBe('duplicate');

    await expect(store().latestAuditCheckpoint()).resolves.toEqual(checkpoint(7));
  });

  it('appends a batch too large for one statement', async () => {
    const events = Array.from({ length: 1_200 }, (_, i) => anAuditEvent({ target: `invoice-${i}` }));

    await store().appendAuditRecords(events);

    const listed = await store().listAuditRecords({ limit: 2_000 });
    expect(listed).toHaveLength(1_200);
    expect(verifyAuditRecords(genesis, listed).valid).toBe(true);
  });
};
