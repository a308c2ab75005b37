/** Injection tokens for values that are not classes. */
export const PLATFORM_CONFIG = Symbol('PLATFORM_CONFIG');
export const CLOCK = Symbol('CLOCK');
export const DATA_SOURCE = Symbol('DATA_SOURCE');
export const STORES = Symbol('STORES');
export const TRANSACTOR = Symbol('TRANSACTOR');
export const SECRET_HASHER = Symbol('SECRET_HASHER');
