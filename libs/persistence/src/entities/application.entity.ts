import { Column, Entity, PrimaryColumn } from 'typeorm';
import { epochMillis, jsonStringArray } from '../transformers';

@Entity('applications')
export class ApplicationEntity {
  @PrimaryColumn({ name: 'client_id', type: 'varchar' })
  clientId: string;

  @Column({ type: 'varchar' })
  name: string;

  @Column({ name: 'app_type', type: 'varchar' })
  appType: string;

  @Column({ name: 'declared_scopes', type: 'text', transformer: jsonStringArray })
  declaredScopes: string[];

  @Column({ name: 'redirect_uris', type: 'text', transformer: jsonStringArray })
  redirectUris: string[];

  @Column({ name: 'secret_hash', type: 'varchar', nullable: true })
  secretHash: string | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;

  @Column({ name: 'rotated_at', type: 'bigint', nullable: true, transformer: epochMillis })
  rotatedAt: Date | null;

  @Column({ type: 'varchar', nullable: true })
  tenant: string | null;
}
