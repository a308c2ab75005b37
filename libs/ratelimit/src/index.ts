export * from './headers';
export * from './rate-limit';
