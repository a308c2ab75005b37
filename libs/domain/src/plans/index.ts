export * from './plan';
export * from './subscription';
export * from './entitlements';
export * from './quota-period';
export * from './quota-store';
export * from './quota-ledger';
export * from './plan-definitions';
