import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { DomainError, secretsEqual } from '@platform/domain';
import type { FastifyRequest } from 'fastify';
import { headerValue, INTERNAL_TOKEN_HEADER } from './request';

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
