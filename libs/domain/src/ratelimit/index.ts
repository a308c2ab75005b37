export * from './service-definition';
export * from './rate-limit-rules';
