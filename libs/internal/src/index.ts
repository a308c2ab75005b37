export * from './control-plane-connection';
export * from './internal-token';
export * from './principal-header';
