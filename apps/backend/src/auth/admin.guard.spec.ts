import type { ExecutionContext } from '@nestjs/common';
import { BearerError, DomainError } from '@platform/domain';
import { MissingBearerTokenError } from '@platform/http';
import type { SidecarClient } from '../clients/sidecar.client';
import { claimsFactory, fakeSidecar, type FakeSidecar } from '../testing/fakes';
import { AdminGuard, isAdmin } from './admin.guard';
import { type AuthenticatedRequest, BearerGuard } from './bearer.guard';

const contextFor = (request: Partial<AuthenticatedRequest>): ExecutionContext =>
  ({ switchToHttp: () => ({ getRequest: () => request }) }) as unknown as ExecutionContext;

const requestWith = (authorization?: string): Partial<AuthenticatedRequest> =>
  ({
    id: 'req-1',
    headers: authorization === undefined ? {} : { authorization },
  }) as Partial<AuthenticatedRequest>;

describe(BearerGuard.name, () => {
  let sidecar: FakeSidecar;
  let guard: BearerGuard;

  beforeEach(() => {
    sidecar = fakeSidecar();
    guard = new BearerGuard(sidecar as unknown as SidecarClient);
  });

  it('attaches the claims of a token the sidecar accepts', async () => {
    const claims = claimsFactory();
    sidecar.validateToken.mockResolvedValue(claims);
    const request = requestWith('Bearer abc.def.ghi');
    await expect(guard.canActivate(contextFor(request))).resolves.toBe(true);
    expect(request.claims).toBe(claims);
    expect(sidecar.validateToken).toHaveBeenCalledWith('abc.def.ghi', 'req-1');
  });

  it('refuses a request without a token before asking the sidecar', async () => {
    await expect(guard.canActivate(contextFor(requestWith()))).rejects.toBeInstanceOf(
      MissingBearerTokenError,
    );
    expect(sidecar.validateToken).not.toHaveBeenCalled();
  });

  it('treats Basic credentials as no bearer token', async () => {
    await expect(guard.canActivate(contextFor(requestWith('Basic YTpi')))).rejects.toBeInstanceOf(
      MissingBearerTokenError,
    );
  });

  it('refuses a malformed Bearer header as invalid_request', async () => {
    await expect(guard.canActivate(contextFor(requestWith('Bearer a b')))).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });

  it('passes the sidecar refusal on as invalid_token', async () => {
    sidecar.validateToken.mockRejectedValue(new BearerError('invalid_token', 'token revoked'));
    await expect(guard.canActivate(contextFor(requestWith('Bearer abc')))).rejects.toMatchObject({
      code: 'invalid_token',
    });
  });

  it('fails closed when the sidecar is unavailable', async () => {
    sidecar.validateToken.mockRejectedValue(new DomainError('unavailable', 'down'));
    await expect(guard.canActivate(contextFor(requestWith('Bearer abc')))).rejects.toMatchObject({
      code: 'unavailable',
    });
  });
});

describe(AdminGuard.name, () => {
  let sidecar: FakeSidecar;
  let guard: AdminGuard;

  beforeEach(() => {
    sidecar = fakeSidecar();
    guard = new AdminGuard(sidecar as unknown as SidecarClient);
  });

  it('admits a token carrying admin.*', async () => {
    sidecar.validateToken.mockResolvedValue(claimsFactory({ scope: 'jobs.read admin.*' }));
    await expect(guard.canActivate(contextFor(requestWith('Bearer abc')))).resolves.toBe(true);
  });

  it('admits a user token with the global_admin role', async () => {
    sidecar.validateToken.mockResolvedValue(
      claimsFactory({ scope: '', roles: ['global_admin'], tenant: 't1' }),
    );
    await expect(guard.canActivate(contextFor(requestWith('Bearer abc')))).resolves.toBe(true);
  });

  it('refuses a valid non-admin token with insufficient_scope naming admin.*', async () => {
    sidecar.validateToken.mockResolvedValue(
      claimsFactory({ scope: 'jobs.read jobs.write', roles: ['tenant_admin'] }),
    );
    await expect(guard.canActivate(contextFor(requestWith('Bearer abc')))).rejects.toMatchObject({
      code: 'insufficient_scope',
      requiredScope: 'admin.*',
    });
  });

  it('refuses a missing token as unauthenticated, not as forbidden', async () => {
    await expect(guard.canActivate(contextFor(requestWith()))).rejects.toBeInstanceOf(
      MissingBearerTokenError,
    );
  });
});

describe('isAdmin', () => {
  it('does not take a narrower admin scope for admin.*', () => {
    expect(isAdmin({ scope: 'admin.read', roles: [] })).toBe(false);
  });

  it('does not take a look-alike scope for admin.*', () => {
    expect(isAdmin({ scope: 'admins.*', roles: [] })).toBe(false);
  });
});
