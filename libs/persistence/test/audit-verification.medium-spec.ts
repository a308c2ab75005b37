import { AuditLog, AuditTrail, systemClock } from '@platform/domain';
import { anAuditEvent } from './support/factories';
import { databaseDrivers, type SqlTestDatabase } from './support/drivers';

/** What verification finds when someone edits the audit table behind the platform's back. */
for (const driver of databaseDrivers()) {
  describe(`audit verification against the ${driver.name} database`, () => {
    let database: SqlTestDatabase;
    const log = () => new AuditLog(database.stores.audit, database.transactor, new AuditTrail(systemClock));
    const tamper = (sql: string) => database.dataSource.query(sql);

    beforeAll(async () => {
      database = await driver.open();
    });
    afterAll(async () => {
      await database.dispose();
    });
    beforeEach(async () => {
      await database.reset();
      for (let i = 0; i < 10; i++) {
        await database.stores.audit.appendAuditRecords([anAuditEvent({ target: `invoice-${i}` })]);
      }
    });

    it('verifies the untouched chain, whole and in a range', async () => {
      await expect(log().verify()).resolves.toEqual({
        valid: true,
        checked: 10,
        from: 1,
        through: 10,
        firstInvalid: null,
      });
      await expect(log().verify({ from: 4, through: 6 })).resolves.toEqual({
        valid: true,
        checked: 3,
        from: 4,
        through: 6,
        firstInvalid: null,
      });
    });

    it('names the record whose row was edited', async () => {
      await tamper(`UPDATE audit_records SET outcome = 'failure' WHERE sequence_id = 4`);

      await expect(log().verify()).resolves.toMatchObject({
        valid: false,
        checked: 3,
        firstInvalid: { sequenceId: 4, problem: 'record_hash_mismatch' },
      });
      await expect(log().verify({ from: 5 })).resolves.toMatchObject({ valid: true });
    });

    it('names the record whose stored hash was rewritten', async () => {
      await tamper(`UPDATE audit_records SET record_hash = '${'a'.repeat(64)}' WHERE sequence_id = 7`);

      await expect(log().verify()).resolves.toMatchObject({
        firstInvalid: { sequenceId: 7, problem: 'record_hash_mismatch' },
      });
    });

    it('names the sequence id of a deleted row, in the middle or at the end', async () => {
      await tamper('DELETE FROM audit_records WHERE sequence_id = 5');
      await expect(log().verify()).resolves.toMatchObject({
        firstInvalid: { sequenceId: 5, problem: 'sequence_gap' },
      });

      await tamper('DELETE FROM audit_records WHERE sequence_id = 10');
      await expect(log().verify({ from: 7 })).resolves.toMatchObject({
        firstInvalid: { sequenceId: 10, problem: 'sequence_gap' },
      });
    });
  });
}
