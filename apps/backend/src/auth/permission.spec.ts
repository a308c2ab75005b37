import { Controller, Get, type LoggerService, Module, Param } from '@nestjs/common';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BearerError, DomainError } from '@platform/domain';
import type { TokenClaims } from '@platform/grpc';
import { createHttpApp, MissingBearerTokenError } from '@platform/http';
import { type Authorization, SidecarClient } from '../clients/sidecar.client';
import { claimsFactory } from '../testing/fakes';
import { Claims } from './bearer.guard';
import {
  type AuthorizedRequest,
  PermissionDeniedError,
  PermissionGuard,
  REQUIRED_PERMISSION,
  type RequiredPermission,
  RequirePermission,
} from './permission';
import { DpopResourceCheck } from './dpop-resource-check';

type FakeAuthorizer = jest.Mocked<Pick<SidecarClient, 'authorize'>>;

const userClaims = (overrides: Partial<TokenClaims> = {}): TokenClaims =>
  claimsFactory({
    sub: 'user-1',
    client_id: 'portal',
    scope: 'users.read',
    tenant: 'acme',
    roles: ['user'],
    ...overrides,
  });

const allowed = (claims: TokenClaims = userClaims()): Authorization => ({
  claims,
  decisionId: 'd-allow',
  decidedBy: ['token-scope', 'user-own-tenant'],
});

describe(PermissionGuard.name, () => {
  let sidecar: FakeAuthorizer;
  let guard: PermissionGuard;

  const contextFor = (
    request: Partial<AuthorizedRequest>,
    required: RequiredPermission | undefined,
  ): ExecutionContext => {
    const handler = () => undefined;
    if (required !== undefined) Reflect.defineMetadata(REQUIRED_PERMISSION, required, handler);
    return {
      switchToHttp: () => ({ getRequest: () => request }),
      getHandler: () => handler,
      getClass: () => class Plain {},
    } as unknown as ExecutionContext;
  };

  const requestWith = (
    authorization: string | undefined,
    params: Record<string, string> = {},
  ): Partial<AuthorizedRequest> =>
    ({
      id: 'req-7',
      headers: authorization === undefined ? {} : { authorization },
      params,
    }) as Partial<AuthorizedRequest>;

  beforeEach(() => {
    sidecar = { authorize: jest.fn() };
    guard = new PermissionGuard(
      sidecar as unknown as SidecarClient,
      new Reflector(),
      new DpopResourceCheck('https://auth.example.test'),
    );
  });

  it('asks the sidecar once with the action and the tenant of the route parameter', async () => {
    sidecar.authorize.mockResolvedValue(allowed());
    const request = requestWith('Bearer abc.def.ghi', { tenant: 'acme' });

    await expect(
      guard.canActivate(contextFor(request, { action: 'users.read', tenantParam: 'tenant' })),
    ).resolves.toBe(true);

    expect(sidecar.authorize).toHaveBeenCalledTimes(1);
    expect(sidecar.authorize).toHaveBeenCalledWith('abc.def.ghi', 'users.read', 'acme');
  });

  it('attaches the claims and the decision to the request, as BearerGuard does', async () => {
    const claims = userClaims();
    sidecar.authorize.mockResolvedValue(allowed(claims));
    const request = requestWith('Bearer abc', { tenant: 'acme' });

    await guard.canActivate(contextFor(request, { action: 'users.read', tenantParam: 'tenant' }));

    expect(request.claims).toBe(claims);
    expect(request.permission).toEqual({
      action: 'users.read',
      tenant: 'acme',
      decisionId: 'd-allow',
      decidedBy: ['token-scope', 'user-own-tenant'],
    });
  });

  it('sends an empty tenant for a platform-wide route', async () => {
    sidecar.authorize.mockResolvedValue(allowed());

    await guard.canActivate(contextFor(requestWith('Bearer abc'), { action: 'apps.write' }));

    expect(sidecar.authorize).toHaveBeenCalledWith('abc', 'apps.write', '');
  });

  describe('with the tenant named in the body (a worker’s claim)', () => {
    const tokenOf = (claims: Record<string, unknown>) =>
      `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;
    const claim = (token: string, body: unknown) =>
      guard.canActivate(
        contextFor({ ...requestWith(`Bearer ${token}`), body } as Partial<AuthorizedRequest>, {
          action: 'jobs.work',
          tenantBody: 'tenant',
        }),
      );

    it('asks for the tenant the body names', async () => {
      sidecar.authorize.mockResolvedValue(allowed());
      const token = tokenOf({ tenant: 'globex' });

      await claim(token, { types: ['payroll.run'], tenant: 'acme' });

      expect(sidecar.authorize).toHaveBeenCalledWith(token, 'jobs.work', 'acme');
    });

    it('asks for the caller’s own tenant when the body names none, platform-wide for an unbound caller', async () => {
      sidecar.authorize.mockResolvedValue(allowed());
      const bound = tokenOf({ tenant: 'globex' });
      const unbound = tokenOf({ client_id: 'renderer' });

      await claim(bound, { types: ['payroll.run'] });
      await claim(unbound, { types: ['payroll.run'], tenant: '' });

      expect(sidecar.authorize.mock.calls).toEqual([
        [bound, 'jobs.work', 'globex'],
        [unbound, 'jobs.work', ''],
      ]);
    });
  });

  it('refuses a request without a token before asking the sidecar', async () => {
    await expect(
      guard.canActivate(contextFor(requestWith(undefined), { action: 'users.read' })),
    ).rejects.toBeInstanceOf(MissingBearerTokenError);
    expect(sidecar.authorize).not.toHaveBeenCalled();
  });

  it('passes the sidecar refusal of the token on as invalid_token', async () => {
    sidecar.authorize.mockRejectedValue(new BearerError('invalid_token', 'token expired'));

    await expect(
      guard.canActivate(contextFor(requestWith('Bearer abc'), { action: 'users.read' })),
    ).rejects.toMatchObject({ code: 'invalid_token' });
  });

  it('passes a refused action on with its decision', async () => {
    sidecar.authorize.mockRejectedValue(
      new PermissionDeniedError('users.write', 'd-1', ['tenant-isolation']),
    );
    const request = requestWith('Bearer abc', { tenant: 'globex' });

    await expect(
      guard.canActivate(contextFor(request, { action: 'users.write', tenantParam: 'tenant' })),
    ).rejects.toMatchObject({
      code: 'insufficient_scope',
      decisionId: 'd-1',
      decidedBy: ['tenant-isolation'],
    });
    expect(request.claims).toBeUndefined();
  });

  it('fails closed when the sidecar is unavailable', async () => {
    sidecar.authorize.mockRejectedValue(new DomainError('unavailable', 'down'));

    await expect(
      guard.canActivate(contextFor(requestWith('Bearer abc'), { action: 'users.read' })),
    ).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('refuses to run on a route without @RequirePermission', async () => {
    await expect(guard.canActivate(contextFor(requestWith('Bearer abc'), undefined))).rejects.toThrow(
      /without @RequirePermission/,
    );
    expect(sidecar.authorize).not.toHaveBeenCalled();
  });

  it('refuses to run when the declared tenant parameter is absent', async () => {
    await expect(
      guard.canActivate(
        contextFor(requestWith('Bearer abc'), { action: 'users.read', tenantParam: 'tenant' }),
      ),
    ).rejects.toThrow(/tenantParam/);
    expect(sidecar.authorize).not.toHaveBeenCalled();
  });
});

@Controller('tenants')
class TenantProbeController {
  @Get(':tenant/users')
  @RequirePermission('users.read', { tenantParam: 'tenant' })
  list(@Param('tenant') tenant: string, @Claims() claims: TokenClaims): { tenant: string; sub: string } {
    return { tenant, sub: claims.sub };
  }
}

describe('@RequirePermission over HTTP', () => {
  let app: NestFastifyApplication;
  let sidecar: FakeAuthorizer;
  let logger: jest.Mocked<LoggerService>;

  beforeAll(async () => {
    sidecar = { authorize: jest.fn() };
    logger = { log: jest.fn(), error: jest.fn(), warn: jest.fn(), debug: jest.fn(), verbose: jest.fn() };
    @Module({
      controllers: [TenantProbeController],
      providers: [
        { provide: SidecarClient, useValue: sidecar },
        { provide: DpopResourceCheck, useValue: new DpopResourceCheck('https://auth.example.test') },
      ],
    })
    class ProbeModule {}
    app = await createHttpApp(ProbeModule, { logger, bodyLimit: 4096 });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(() => app.close());

  beforeEach(() => sidecar.authorize.mockReset());

  const get = (authorization?: string) =>
    app.inject({
      method: 'GET',
      url: '/tenants/acme/users',
      headers: authorization === undefined ? {} : { authorization },
    });

  it('lets an allowed caller through with its claims', async () => {
    sidecar.authorize.mockResolvedValue(allowed());

    const response = await get('Bearer abc');

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ tenant: 'acme', sub: 'user-1' });
    expect(sidecar.authorize).toHaveBeenCalledWith('abc', 'users.read', 'acme');
  });

  it('answers 401 with a bare challenge without a token', async () => {
    const response = await get();

    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="oauth"');
  });

  it('answers 401 invalid_token for a token the sidecar refuses', async () => {
    sidecar.authorize.mockRejectedValue(new BearerError('invalid_token', 'token revoked'));

    const response = await get('Bearer abc');

    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(response.json()).toMatchObject({ error: 'invalid_token' });
  });

  it('answers 403 problem+json with insufficient_scope, decision_id and decided_by', async () => {
    sidecar.authorize.mockRejectedValue(
      new PermissionDeniedError('users.read', 'decision-1', ['token-scope', 'tenant-isolation']),
    );

    const response = await get('Bearer abc');

    expect(response.statusCode).toBe(403);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.headers['www-authenticate']).toContain('error="insufficient_scope"');
    expect(response.headers['www-authenticate']).toContain('scope="users.read"');
    expect(response.json()).toEqual({
      type: 'about:blank',
      title: 'Forbidden',
      status: 403,
      detail: expect.any(String),
      error: 'insufficient_scope',
      decision_id: 'decision-1',
      decided_by: ['token-scope', 'tenant-isolation'],
    });
  });

  it('answers 503 when the sidecar cannot decide (fail closed)', async () => {
    sidecar.authorize.mockRejectedValue(new DomainError('unavailable', 'Authorization is unavailable'));

    const response = await get('Bearer abc');

    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toContain('application/problem+json');
  });
});
