export * from './service-definition';
