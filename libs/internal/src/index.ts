export * from './control-plane-connection';
export * from './internal-token';
export * from './principal-header';
export * from './introspection-reach';
export * from './token-batch';
