export {
  createDataSource,
  openDataSource,
  dataSourceOptions,
  DatabaseUrlError,
  sqliteFile,
} from './data-source';
export { TypeOrmStores } from './stores/typeorm-stores';
export { AUDIT_RECORD_COLUMNS, auditRecordValues } from './stores/audit.store';
export { TOKEN_EVENT_COLUMNS, tokenEventValues } from './stores/token-event.store';
export { TypeOrmTransactor } from './typeorm-transactor';
export { MIGRATIONS } from './migrations';
export { ENTITIES } from './entities';
