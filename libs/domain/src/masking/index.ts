export * from './credential-shapes';
export * from './detectors';
export * from './masking-engine';
export * from './masking-settings';
