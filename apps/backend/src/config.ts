/** Injection token of the validated PlatformConfig read once in main.ts (loadConfig, role 'backend'). */
export const PLATFORM_CONFIG = Symbol('PLATFORM_CONFIG');
