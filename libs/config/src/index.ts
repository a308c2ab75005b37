export * from './checks';
export * from './config';
export * from './defaults';
