export * from './errors';
export * from './application';
export * from './scopes';
export * from './storage';
export * from './clock';
