import { Column, Entity, PrimaryColumn } from 'typeorm';
import { epochMillis } from '../transformers';

@Entity('scopes')
export class ScopeEntity {
  @PrimaryColumn({ type: 'varchar' })
  name: string;

  @Column({ type: 'text' })
  description: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;
}
