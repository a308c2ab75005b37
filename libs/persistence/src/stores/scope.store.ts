import type { InsertResult, ScopeDefinition, ScopeStore } from '@platform/domain';
import type { EntityManager } from 'typeorm';
import { ScopeEntity } from '../entities/scope.entity';
import { insertOnce } from './insert-once';

export class TypeOrmScopeStore implements ScopeStore {
  constructor(private readonly manager: EntityManager) {}

  insertScope(scope: ScopeDefinition): Promise<InsertResult> {
    return insertOnce(this.manager, ScopeEntity, { ...scope });
  }

  async listScopes(): Promise<ScopeDefinition[]> {
    const rows = await this.manager.find(ScopeEntity, { order: { name: 'ASC' } });
    return rows.map((row) => ({ name: row.name, description: row.description, createdAt: row.createdAt }));
  }
}
