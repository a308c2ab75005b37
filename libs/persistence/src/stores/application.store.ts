import type {
  Application,
  ApplicationPatch,
  ApplicationPage,
  ApplicationStore,
  AppType,
  InsertResult,
  TokenEndpointAuthMethod,
} from '@platform/domain';
import type { EntityManager } from 'typeorm';
import {
  ApplicationEntity,
  ApplicationRedirectUriEntity,
  redirectUriKey,
} from '../entities/application.entity';
import { epochMillis, jsonStringArray } from '../transformers';
import { insertOnce, writeOnce } from './insert-once';
import { placeholderFor, type Placeholder } from './raw-sql';

const COLUMNS = [
  'client_id',
  'name',
  'app_type',
  'declared_scopes',
  'redirect_uris',
  'secret_hash',
  'created_at',
  'rotated_at',
  'tenant',
  'resource_uri',
  'exchange_audiences',
  'may_impersonate',
  'post_logout_redirect_uris',
  'backchannel_logout_uri',
  'dpop_bound_access_tokens',
  'token_endpoint_auth_method',
  'jwks',
  'jwks_uri',
];
const SELECT_APPLICATIONS = `SELECT ${COLUMNS.join(', ')} FROM applications`;

/** A row of `applications` as the driver returns it (bigint may come back as a string). */
interface ApplicationRow {
  client_id: string;
  name: string;
  app_type: string;
  declared_scopes: string;
  redirect_uris: string;
  secret_hash: string | null;
  created_at: string | number;
  rotated_at: string | number | null;
  tenant: string | null;
  resource_uri: string | null;
  exchange_audiences: string;
  /** A boolean on Postgres, 0 or 1 on SQLite. */
  may_impersonate: boolean | number;
  post_logout_redirect_uris: string;
  backchannel_logout_uri: string | null;
  /** A boolean on Postgres, 0 or 1 on SQLite. */
  dpop_bound_access_tokens: boolean | number;
  token_endpoint_auth_method: string | null;
  /** JSON text. */
  jwks: string | null;
  jwks_uri: string | null;
}

export class TypeOrmApplicationStore implements ApplicationStore {
  /** Runs on every token request: plain SQL, as the query builder costs more than the query. */
  private readonly selectByClientId: string;
  private readonly placeholder: Placeholder;

  constructor(private readonly manager: EntityManager) {
    this.placeholder = placeholderFor(manager);
    this.selectByClientId = `${SELECT_APPLICATIONS} WHERE client_id = ${this.placeholder(1)}`;
  }

  async findApplication(clientId: string): Promise<Application | null> {
    const rows: ApplicationRow[] = await this.manager.query(this.selectByClientId, [clientId]);
    return rows.length === 0 ? null : fromRow(rows[0]);
  }

  /** With its redirect URIs' index rows: the registry inserts in a transaction. */
  async insertApplication(app: Application): Promise<InsertResult> {
    const result = await insertOnce(this.manager, ApplicationEntity, {
      ...app,
      postLogoutRedirectUris: app.postLogoutRedirectUris ?? [],
      backchannelLogoutUri: app.backchannelLogoutUri ?? null,
      dpopBoundAccessTokens: app.dpopBoundAccessTokens ?? false,
      tokenEndpointAuthMethod: app.tokenEndpointAuthMethod ?? null,
      jwks: app.jwks == null ? null : JSON.stringify(app.jwks),
      jwksUri: app.jwksUri ?? null,
    });
    const uris = [...new Set(app.redirectUris)];
    if (result === 'created' && uris.length > 0) {
      await this.manager.insert(
        ApplicationRedirectUriEntity,
        uris.map((uri) => ({ uriHash: redirectUriKey(uri), clientId: app.clientId })),
      );
    }
    return result;
  }

  async findApplicationsByRedirectUri(redirectUri: string, limit: number): Promise<Application[]> {
    const rows: ApplicationRow[] = await this.manager.query(
      `SELECT ${COLUMNS.map((column) => `a.${column}`).join(', ')} FROM application_redirect_uris r JOIN applications a ON a.client_id = r.client_id
       WHERE r.uri_hash = ${this.placeholder(1)} ORDER BY a.client_id ASC LIMIT ${this.placeholder(2)}`,
      [redirectUriKey(redirectUri), limit],
    );
    return rows.map(fromRow);
  }

  async listApplications(page: { after?: string; limit: number }): Promise<ApplicationPage> {
    const params: Array<string | number> = page.after === undefined ? [] : [page.after];
    const after = page.after === undefined ? '' : ` WHERE client_id > ${this.placeholder(1)}`;
    // One extra row tells whether there is a next page.
    params.push(page.limit + 1);
    const rows: ApplicationRow[] = await this.manager.query(
      `${SELECT_APPLICATIONS}${after} ORDER BY client_id ASC LIMIT ${this.placeholder(params.length)}`,
      params,
    );
    const items = rows.slice(0, page.limit).map(fromRow);
    const nextAfter = rows.length > page.limit && items.length > 0 ? items[items.length - 1].clientId : null;
    return { items, nextAfter };
  }

  async deleteApplication(clientId: string): Promise<boolean> {
    await this.manager.delete(ApplicationRedirectUriEntity, { clientId });
    const result = await this.manager.delete(ApplicationEntity, { clientId });
    return (result.affected ?? 0) > 0;
  }

  async findApplicationByResource(uri: string): Promise<Application | null> {
    const rows: ApplicationRow[] = await this.manager.query(
      `${SELECT_APPLICATIONS} WHERE resource_uri = ${this.placeholder(1)}`,
      [uri],
    );
    return rows.length === 0 ? null : fromRow(rows[0]);
  }

  /** A resource URI another app holds is the unique index's violation: 'conflict'. */
  async updateApplicationExchange(
    clientId: string,
    patch: ApplicationPatch,
  ): Promise<'updated' | 'not_found' | 'conflict'> {
    const { resourceUri, exchangeAudiences, mayImpersonate, postLogoutRedirectUris, backchannelLogoutUri } =
      patch;
    const set: Partial<ApplicationEntity> = {
      ...(resourceUri !== undefined && { resourceUri }),
      ...(exchangeAudiences !== undefined && { exchangeAudiences }),
      ...(mayImpersonate !== undefined && { mayImpersonate }),
      ...(postLogoutRedirectUris !== undefined && { postLogoutRedirectUris }),
      ...(backchannelLogoutUri !== undefined && { backchannelLogoutUri }),
      ...(patch.dpopBoundAccessTokens !== undefined && {
        dpopBoundAccessTokens: patch.dpopBoundAccessTokens,
      }),
      ...(patch.jwks !== undefined && { jwks: patch.jwks === null ? null : JSON.stringify(patch.jwks) }),
      ...(patch.jwksUri !== undefined && { jwksUri: patch.jwksUri }),
    };
    if (Object.keys(set).length === 0) {
      return (await this.findApplication(clientId)) ? 'updated' : 'not_found';
    }
    const result = await writeOnce(this.manager, (m) => m.update(ApplicationEntity, { clientId }, set));
    if (result === 'duplicate') return 'conflict';
    return (result.affected ?? 0) > 0 ? 'updated' : 'not_found';
  }

  async updateApplicationSecret(clientId: string, secretHash: string, rotatedAt: Date): Promise<boolean> {
    const result = await this.manager.update(ApplicationEntity, { clientId }, { secretHash, rotatedAt });
    return (result.affected ?? 0) > 0;
  }
}

function fromRow(row: ApplicationRow): Application {
  return {
    clientId: row.client_id,
    name: row.name,
    appType: row.app_type as AppType,
    declaredScopes: jsonStringArray.from(row.declared_scopes) as string[],
    redirectUris: jsonStringArray.from(row.redirect_uris) as string[],
    secretHash: row.secret_hash,
    createdAt: epochMillis.from(row.created_at) as Date,
    rotatedAt: epochMillis.from(row.rotated_at) as Date | null,
    tenant: row.tenant,
    resourceUri: row.resource_uri,
    exchangeAudiences: jsonStringArray.from(row.exchange_audiences) as string[],
    mayImpersonate: Boolean(row.may_impersonate),
    ...logoutFields(jsonStringArray.from(row.post_logout_redirect_uris) as string[], row.backchannel_logout_uri),
    ...(Boolean(row.dpop_bound_access_tokens) && { dpopBoundAccessTokens: true }),
    ...clientKeyFields(row),
  };
}

/** The logout fields only where set (`Application`: absent means none). */
function logoutFields(
  postLogoutRedirectUris: string[],
  backchannelLogoutUri: string | null,
): Pick<Application, 'postLogoutRedirectUris' | 'backchannelLogoutUri'> {
  return {
    ...(postLogoutRedirectUris.length > 0 && { postLogoutRedirectUris }),
    ...(backchannelLogoutUri !== null && { backchannelLogoutUri }),
  };
}

/** How the app authenticates and its keys, only where set (`Application`: absent means none). */
function clientKeyFields(
  row: ApplicationRow,
): Pick<Application, 'tokenEndpointAuthMethod' | 'jwks' | 'jwksUri'> {
  return {
    ...(row.token_endpoint_auth_method !== null && {
      tokenEndpointAuthMethod: row.token_endpoint_auth_method as TokenEndpointAuthMethod,
    }),
    ...(row.jwks !== null && { jwks: JSON.parse(row.jwks) as Application['jwks'] }),
    ...(row.jwks_uri !== null && { jwksUri: row.jwks_uri }),
  };
}
