export * from './bearer';
export * from './create-http-app';
export * from './http-exception.filter';
export * from './internal-token.guard';
export * from './live-feed';
export * from './problem';
export * from './request';
export * from './api-docs/api-docs.module';
