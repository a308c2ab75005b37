export * from './rate-limit-rules';
export * from './rate-limit-definitions';
