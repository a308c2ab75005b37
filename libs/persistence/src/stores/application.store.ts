import type { Application, ApplicationPage, ApplicationStore, AppType, InsertResult } from '@platform/domain';
import type { EntityManager } from 'typeorm';
import { ApplicationEntity } from '../entities/application.entity';
import { insertOnce } from './insert-once';

export class TypeOrmApplicationStore implements ApplicationStore {
  constructor(private readonly manager: EntityManager) {}

  async findApplication(clientId: string): Promise<Application | null> {
    const row = await this.manager.findOneBy(ApplicationEntity, { clientId });
    return row && toApplication(row);
  }

  insertApplication(app: Application): Promise<InsertResult> {
    return insertOnce(this.manager, ApplicationEntity, { ...app });
  }

  async listApplications(page: { after?: string; limit: number }): Promise<ApplicationPage> {
    const query = this.manager
      .createQueryBuilder(ApplicationEntity, 'app')
      .orderBy('app.clientId', 'ASC')
      // One extra row tells whether there is a next page.
      .limit(page.limit + 1);
    if (page.after !== undefined) query.where('app.clientId > :after', { after: page.after });
    const rows = await query.getMany();
    const items = rows.slice(0, page.limit).map(toApplication);
    const nextAfter = rows.length > page.limit && items.length > 0 ? items[items.length - 1].clientId : null;
    return { items, nextAfter };
  }

  async deleteApplication(clientId: string): Promise<boolean> {
    const result = await this.manager.delete(ApplicationEntity, { clientId });
    return (result.affected ?? 0) > 0;
  }

  async updateApplicationSecret(clientId: string, secretHash: string, rotatedAt: Date): Promise<boolean> {
    const result = await this.manager.update(ApplicationEntity, { clientId }, { secretHash, rotatedAt });
    return (result.affected ?? 0) > 0;
  }
}

function toApplication(row: ApplicationEntity): Application {
  return {
    clientId: row.clientId,
    name: row.name,
    appType: row.appType as AppType,
    declaredScopes: row.declaredScopes,
    redirectUris: row.redirectUris,
    secretHash: row.secretHash,
    createdAt: row.createdAt,
    rotatedAt: row.rotatedAt,
  };
}
