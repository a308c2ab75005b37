import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * One batch of a retention sweep (libs/domain `RetentionSweep`): deletes the rows of `entity`
 * whose `key` the `candidates` SELECT names, which bounds itself with `LIMIT :limit` and reads
 * by an index. Answers how many went.
 */
export async function pruneBatch(
  manager: EntityManager,
  entity: EntityTarget<ObjectLiteral>,
  key: string,
  candidates: string,
  parameters: { limit: number } & Record<string, number>,
): Promise<number> {
  const result = await manager
    .createQueryBuilder()
    .delete()
    .from(entity)
    .where(`${key} IN (${candidates})`, parameters)
    .execute();
  return result.affected ?? 0;
}
