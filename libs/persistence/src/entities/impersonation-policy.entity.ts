import { Column, Entity, PrimaryColumn } from 'typeorm';
import { epochMillis } from '../transformers';

/** What a tenant allows of impersonation; a tenant without a row keeps the default. */
@Entity('impersonation_policies')
export class ImpersonationPolicyEntity {
  @PrimaryColumn({ type: 'varchar' })
  tenant: string;

  @Column({ type: 'varchar' })
  mode: string;

  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMillis })
  updatedAt: Date;
}
