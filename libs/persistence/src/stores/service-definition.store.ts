import type { DefinitionKind, DefinitionStore, ServiceDefinition } from '@platform/domain';
import { type EntityManager, IsNull, MoreThan, Not } from 'typeorm';
import {
  ServiceDefinitionEntity,
  ServiceDefinitionSequenceEntity,
} from '../entities/service-definition.entity';

export class TypeOrmDefinitionStore implements DefinitionStore {
  constructor(private readonly manager: EntityManager) {}

  async putDefinition(
    definition: Pick<ServiceDefinition, 'kind' | 'tenant' | 'name' | 'document'>,
    now: Date,
  ): Promise<ServiceDefinition> {
    const write = async (m: EntityManager) => {
      // The update takes the sequence row's lock until commit: a reader never sees seq n+1 before n.
      await m
        .createQueryBuilder()
        .insert()
        .into(ServiceDefinitionSequenceEntity)
        .values({ id: 1, lastSeq: 0 })
        .orIgnore()
        .updateEntity(false)
        .execute();
      await m.increment(ServiceDefinitionSequenceEntity, { id: 1 }, 'lastSeq', 1);
      const { lastSeq } = await m.findOneByOrFail(ServiceDefinitionSequenceEntity, { id: 1 });
      const key = { kind: definition.kind, tenant: definition.tenant, name: definition.name };
      const previous = await m.findOneBy(ServiceDefinitionEntity, key);
      const row: ServiceDefinitionEntity = {
        ...key,
        document: definition.document,
        version: (previous?.version ?? 0) + 1,
        seq: lastSeq,
        updatedAt: now,
      };
      await m.save(ServiceDefinitionEntity, row);
      return toDefinition(row);
    };
    return this.manager.queryRunner?.isTransactionActive
      ? write(this.manager)
      : this.manager.transaction(write);
  }

  async findDefinition(
    kind: DefinitionKind,
    tenant: string,
    name: string,
  ): Promise<ServiceDefinition | null> {
    const row = await this.manager.findOneBy(ServiceDefinitionEntity, {
      kind,
      tenant,
      name,
      document: Not(IsNull()),
    });
    return row && toDefinition(row);
  }

  async listDefinitions(kind: DefinitionKind, tenant: string): Promise<ServiceDefinition[]> {
    const rows = await this.manager.find(ServiceDefinitionEntity, {
      where: { kind, tenant, document: Not(IsNull()) },
      order: { name: 'ASC' },
    });
    return rows.map(toDefinition);
  }

  async listDefinitionsAfter(afterSeq: number, limit: number): Promise<ServiceDefinition[]> {
    const rows = await this.manager.find(ServiceDefinitionEntity, {
      where: { seq: MoreThan(afterSeq) },
      order: { seq: 'ASC' },
      take: limit,
    });
    return rows.map(toDefinition);
  }
}

function toDefinition(row: ServiceDefinitionEntity): ServiceDefinition {
  return {
    kind: row.kind as DefinitionKind,
    tenant: row.tenant,
    name: row.name,
    document: row.document,
    version: row.version,
    seq: row.seq,
    updatedAt: row.updatedAt,
  };
}
