export * from './policy';
export * from './default-policies';
export * from './policy-engine';
export * from './policy-validation';
export * from './tenant-isolation';
