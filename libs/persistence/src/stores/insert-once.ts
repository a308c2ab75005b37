import type { InsertResult } from '@platform/domain';
import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { isUniqueViolation } from '../driver-errors';

/**
 * Inserts one row, answering 'duplicate' on a key clash instead of throwing. Inside a
 * transaction the insert runs under a savepoint: Postgres aborts the whole transaction on a
 * failed statement, and the caller may want to carry on after a duplicate.
 */
export async function insertOnce<Entity extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<Entity>,
  row: QueryDeepPartialEntity<Entity>,
): Promise<InsertResult> {
  const insert = (m: EntityManager) =>
    m.createQueryBuilder().insert().into(target).values(row).updateEntity(false).execute();
  try {
    if (manager.queryRunner?.isTransactionActive) await manager.transaction(insert);
    else await insert(manager);
    return 'created';
  } catch (error) {
    if (isUniqueViolation(error)) return 'duplicate';
    throw error;
  }
}
