import type { ImpersonationMode, ImpersonationPolicyStore } from '@platform/domain';
import type { EntityManager } from 'typeorm';
import { ImpersonationPolicyEntity } from '../entities/impersonation-policy.entity';

export class TypeOrmImpersonationPolicyStore implements ImpersonationPolicyStore {
  constructor(private readonly manager: EntityManager) {}

  async findImpersonationPolicy(tenant: string): Promise<ImpersonationMode | null> {
    const row = await this.manager.findOneBy(ImpersonationPolicyEntity, { tenant });
    return row && (row.mode as ImpersonationMode);
  }

  /** INSERT ... ON CONFLICT DO UPDATE: two first writes of a tenant cannot clash. */
  async putImpersonationPolicy(tenant: string, mode: ImpersonationMode, updatedAt: Date): Promise<void> {
    await this.manager
      .createQueryBuilder()
      .insert()
      .into(ImpersonationPolicyEntity)
      .values({ tenant, mode, updatedAt })
      .orUpdate(['mode', 'updated_at'], ['tenant'])
      .updateEntity(false)
      .execute();
  }
}
