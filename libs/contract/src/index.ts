export * from './errors';
export * from './keys';
export * from './login';
export * from './oauth';
export * from './paging';
export * from './platform';
export * from './registry';
export * from './users';
