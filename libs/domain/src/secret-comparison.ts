import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * Constant-time comparison of two secrets of any length: both are hashed to 32 bytes first, so
 * `timingSafeEqual` compares equal-length buffers and the expected secret's length does not leak.
 */
export function secretsEqual(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}
