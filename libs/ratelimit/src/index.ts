export * from './headers';
export * from './rate-limit';
export * from './quota-counter';
