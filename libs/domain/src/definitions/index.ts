export * from './service-definition';
export * from './definition-registry';
