import type { InsertResult } from '@platform/domain';
import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { isUniqueViolation } from '../driver-errors';

/**
 * Runs one write, answering 'duplicate' on a key clash instead of throwing. Inside a transaction
 * the write runs under a savepoint: Postgres aborts the whole transaction on a failed statement,
 * and the caller may want to carry on after a duplicate.
 */
export async function writeOnce<T>(
  manager: EntityManager,
  write: (m: EntityManager) => Promise<T>,
): Promise<T | 'duplicate'> {
  try {
    return manager.queryRunner?.isTransactionActive ? await manager.transaction(write) : await write(manager);
  } catch (error) {
    if (isUniqueViolation(error)) return 'duplicate';
    throw error;
  }
}

/** Inserts one row, answering 'duplicate' on a key clash (`writeOnce`). */
export async function insertOnce<Entity extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<Entity>,
  row: QueryDeepPartialEntity<Entity>,
): Promise<InsertResult> {
  return writeOnce(manager, async (m) => {
    await m.createQueryBuilder().insert().into(target).values(row).updateEntity(false).execute();
    return 'created' as const;
  });
}
