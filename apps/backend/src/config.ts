/** Injection token of the validated PlatformConfig read once in main.ts. */
export const PLATFORM_CONFIG = Symbol('PLATFORM_CONFIG');
