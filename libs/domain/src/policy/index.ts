export * from './policy';
export * from './default-policies';
export * from './policy-engine';
