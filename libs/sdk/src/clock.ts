import type { Clock } from '@platform/domain';

export type { Clock };

/**
 * The real time. The Clock type is the platform's own; this default is the SDK's, since the SDK
 * loads nothing of the server's engine at run time (its index pulls in argon2, a native addon).
 */
export const systemClock: Clock = { now: () => new Date() };
