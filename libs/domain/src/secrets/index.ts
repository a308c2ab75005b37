export * from './envelope';
export * from './secret';
export * from './secret-vault';
