export * from './decide';
export * from './principal';
export * from './reserved-scopes';
export * from './cross-tenant-refusals';
export * from './impersonation';
