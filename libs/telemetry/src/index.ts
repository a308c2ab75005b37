export * from './correlation';
export * from './logger';
export * from './metrics';
