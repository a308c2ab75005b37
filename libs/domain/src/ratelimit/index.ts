export * from './rate-limit-rules';
export * from './rate-limit-rule-registry';
