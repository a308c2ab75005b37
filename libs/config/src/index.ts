export * from './checks';
export * from './config';
export * from './defaults';
export * from './private-files';
