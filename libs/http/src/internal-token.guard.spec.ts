import type { ExecutionContext } from '@nestjs/common';
import { DomainError } from '@platform/domain';
import { InternalTokenGuard } from './internal-token.guard';

const contextWith = (headers: Record<string, string | string[]>): ExecutionContext =>
  ({ switchToHttp: () => ({ getRequest: () => ({ headers }) }) }) as unknown as ExecutionContext;

describe(InternalTokenGuard.name, () => {
  const guard = new InternalTokenGuard('internal-secret');

  it('admits a request carrying the internal token', () => {
    expect(guard.canActivate(contextWith({ 'x-internal-token': 'internal-secret' }))).toBe(true);
  });

  it('refuses a request without the header as unauthenticated', () => {
    expect(() => guard.canActivate(contextWith({}))).toThrow(DomainError);
    try {
      guard.canActivate(contextWith({}));
    } catch (error) {
      expect((error as DomainError).code).toBe('unauthenticated');
    }
  });

  it('refuses a wrong token, including a prefix of the right one', () => {
    expect(() => guard.canActivate(contextWith({ 'x-internal-token': 'internal' }))).toThrow(DomainError);
    expect(() => guard.canActivate(contextWith({ 'x-internal-token': 'internal-secret2' }))).toThrow(
      DomainError,
    );
  });

  it('admits no one when the expected token is empty', () => {
    expect(() => new InternalTokenGuard('').canActivate(contextWith({ 'x-internal-token': '' }))).toThrow(
      DomainError,
    );
  });
});
