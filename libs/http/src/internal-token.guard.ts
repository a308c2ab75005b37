import { createHash, timingSafeEqual } from 'node:crypto';
import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { DomainError } from '@platform/domain';
import type { FastifyRequest } from 'fastify';
import { headerValue, INTERNAL_TOKEN_HEADER } from './request';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Constant-time comparison of two secrets of any length (SHA-256 digests are equal length). */
export function secretsEqual(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * Admits only callers presenting `x-internal-token: <INTERNAL_TOKEN>`. Wrong or missing:
 * DomainError `unauthenticated` (401 problem+json). An empty expected token admits no one.
 */
export class InternalTokenGuard implements CanActivate {
  private readonly expected: string;

  constructor(expected: string) {
    this.expected = expected;
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const presented = headerValue(request.headers[INTERNAL_TOKEN_HEADER]);
    const matches = presented !== undefined && secretsEqual(presented, this.expected);
    if (!matches || this.expected.length === 0) {
      throw new DomainError('unauthenticated', 'A valid internal token is required');
    }
    return true;
  }
}
