import type {
  Role,
  SamlAttributeMapping,
  SamlIdentityProvider,
  SamlIdentityProviderStore,
  SamlRequestRecord,
  SamlRequestStore,
} from '@platform/domain';
import type { EntityManager } from 'typeorm';
import { SamlIdentityProviderEntity, SamlRequestEntity } from '../entities/saml.entity';
import { pruneBatch } from './prune-batch';

export class TypeOrmSamlIdentityProviderStore implements SamlIdentityProviderStore {
  constructor(private readonly manager: EntityManager) {}

  /** `INSERT ... ON CONFLICT (tenant) DO UPDATE`, atomic on both databases; created when none was there. */
  async upsertSamlIdentityProvider(idp: SamlIdentityProvider): Promise<'created' | 'updated'> {
    const existed = await this.manager.existsBy(SamlIdentityProviderEntity, { tenant: idp.tenant });
    await this.manager
      .createQueryBuilder()
      .insert()
      .into(SamlIdentityProviderEntity)
      .values(toRow(idp))
      .orUpdate(
        [
          'entity_id',
          'sso_url',
          'certificates',
          'attribute_mapping',
          'role_mapping',
          'want_response_signed',
          'name_id_format',
          'updated_at',
        ],
        ['tenant'],
      )
      .updateEntity(false)
      .execute();
    return existed ? 'updated' : 'created';
  }

  async findSamlIdentityProvider(tenant: string): Promise<SamlIdentityProvider | null> {
    const row = await this.manager.findOneBy(SamlIdentityProviderEntity, { tenant });
    return row && fromRow(row);
  }

  async deleteSamlIdentityProvider(tenant: string): Promise<boolean> {
    const result = await this.manager.delete(SamlIdentityProviderEntity, { tenant });
    return (result.affected ?? 0) > 0;
  }
}

export class TypeOrmSamlRequestStore implements SamlRequestStore {
  constructor(private readonly manager: EntityManager) {}

  async insertSamlRequest(request: SamlRequestRecord): Promise<void> {
    await this.manager.insert(SamlRequestEntity, request);
  }

  /** One DELETE decides: of two replicas receiving the same answer, one deletes the row. */
  async consumeSamlRequest(id: string, tenant: string, now: Date): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .delete()
      .from(SamlRequestEntity)
      .where('id = :id AND tenant = :tenant AND expires_at > :now', { id, tenant, now: now.getTime() })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  pruneSamlRequests(before: Date, limit: number): Promise<number> {
    return pruneBatch(
      this.manager,
      SamlRequestEntity,
      'id',
      'SELECT id FROM saml_requests WHERE expires_at <= :before LIMIT :limit',
      { before: before.getTime(), limit },
    );
  }
}

function toRow(idp: SamlIdentityProvider): SamlIdentityProviderEntity {
  return {
    tenant: idp.tenant,
    entityId: idp.entityId,
    ssoUrl: idp.ssoUrl,
    certificates: JSON.stringify(idp.certificates),
    attributeMapping: JSON.stringify(idp.attributeMapping),
    roleMapping: JSON.stringify(idp.roleMapping),
    wantResponseSigned: idp.wantResponseSigned,
    nameIdFormat: idp.nameIdFormat,
    createdAt: idp.createdAt,
    updatedAt: idp.updatedAt,
  };
}

function fromRow(row: SamlIdentityProviderEntity): SamlIdentityProvider {
  return {
    tenant: row.tenant,
    entityId: row.entityId,
    ssoUrl: row.ssoUrl,
    certificates: JSON.parse(row.certificates) as string[],
    attributeMapping: JSON.parse(row.attributeMapping) as SamlAttributeMapping,
    roleMapping: JSON.parse(row.roleMapping) as Record<string, Role>,
    wantResponseSigned: row.wantResponseSigned,
    nameIdFormat: row.nameIdFormat,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
