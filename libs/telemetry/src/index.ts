export * from './correlation';
export * from './logger';
export * from './metrics';
export * from './masking';
export * from './tracing';
