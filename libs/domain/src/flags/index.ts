export * from './flag-definitions';
