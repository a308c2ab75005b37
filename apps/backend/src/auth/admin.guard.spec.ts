import type { ExecutionContext } from '@nestjs/common';
import { BearerError, DomainError } from '@platform/domain';
import { MissingBearerTokenError } from '@platform/http';
import type { SidecarClient } from '../clients/sidecar.client';
import { ISSUER, keyPair, NOW, sign } from '../testing/access-tokens';
import { claimsFactory, fakeSidecar, type FakeSidecar } from '../testing/fakes';
import { AdminGuard } from './admin.guard';
import { type AuthenticatedRequest, BearerGuard } from './bearer.guard';
import { DpopResourceCheck } from './dpop-resource-check';
import { LocalTokenVerifier } from './local-token-verifier';
import { ValidatedTokenCache } from './validated-token-cache';

const contextFor = (request: Partial<AuthenticatedRequest>): ExecutionContext =>
  ({ switchToHttp: () => ({ getRequest: () => request }) }) as unknown as ExecutionContext;

const requestWith = (authorization?: string): Partial<AuthenticatedRequest> =>
  ({
    id: 'req-1',
    headers: authorization === undefined ? {} : { authorization },
  }) as Partial<AuthenticatedRequest>;

/** A verifier whose stream never went live: it judges nothing, every new token asks the sidecar. */
const darkVerifier = () => new LocalTokenVerifier('http://127.0.0.1:3000');

describe(BearerGuard.name, () => {
  let sidecar: FakeSidecar;
  let guard: BearerGuard;

  beforeEach(() => {
    sidecar = fakeSidecar();
    guard = new BearerGuard(
      sidecar as unknown as SidecarClient,
      new ValidatedTokenCache(),
      darkVerifier(),
      new DpopResourceCheck('https://auth.example.test'),
    );
  });

  it('attaches the claims of a token the sidecar accepts', async () => {
    const claims = claimsFactory();
    sidecar.validateToken.mockResolvedValue(claims);
    const request = requestWith('Bearer abc.def.ghi');
    await expect(guard.canActivate(contextFor(request))).resolves.toBe(true);
    expect(request.claims).toBe(claims);
    expect(sidecar.validateToken).toHaveBeenCalledWith('abc.def.ghi');
  });

  it('refuses a request without a token before asking the sidecar', () => {
    expect(() => guard.canActivate(contextFor(requestWith()))).toThrow(MissingBearerTokenError);
    expect(sidecar.validateToken).not.toHaveBeenCalled();
  });

  it('treats Basic credentials as no bearer token', () => {
    expect(() => guard.canActivate(contextFor(requestWith('Basic YTpi')))).toThrow(MissingBearerTokenError);
  });

  it('refuses a malformed Bearer header as invalid_request', () => {
    expect(() => guard.canActivate(contextFor(requestWith('Bearer a b')))).toThrow(
      expect.objectContaining({ code: 'invalid_request' }),
    );
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

  it('asks the sidecar, for the issuer, about a token restricted to a resource, and refuses it with it', async () => {
    const key = await keyPair('RS256');
    const verifier = new LocalTokenVerifier(ISSUER, () => NOW);
    verifier.goLive([key.message], []);
    const cache = new ValidatedTokenCache(10);
    cache.goLive();
    guard = new BearerGuard(
      sidecar as unknown as SidecarClient,
      cache,
      verifier,
      new DpopResourceCheck('https://auth.example.test'),
    );
    const token = await sign(key, { aud: 'https://api.reports.example' });
    sidecar.validateToken.mockRejectedValue(new BearerError('invalid_token', 'wrong audience'));

    await expect(guard.canActivate(contextFor(requestWith(`Bearer ${token}`)))).rejects.toMatchObject({
      code: 'invalid_token',
    });
    // No audience named: the sidecar judges it for the issuer, the platform's own API.
    expect(sidecar.validateToken).toHaveBeenCalledWith(token);
    expect(cache.size).toBe(0);
  });

  describe('with a live validation cache', () => {
    let cache: ValidatedTokenCache;

    beforeEach(() => {
      cache = new ValidatedTokenCache(10);
      cache.goLive();
      guard = new BearerGuard(
        sidecar as unknown as SidecarClient,
        cache,
        darkVerifier(),
        new DpopResourceCheck('https://auth.example.test'),
      );
    });

    it('accepts a token seen before at once, without asking the sidecar again', async () => {
      sidecar.validateToken.mockResolvedValue(claimsFactory());
      await guard.canActivate(contextFor(requestWith('Bearer abc')));
      sidecar.validateToken.mockClear();

      const request = requestWith('Bearer abc');
      // A boolean, not a promise: Nest does not await a guard that answers synchronously.
      expect(guard.canActivate(contextFor(request))).toBe(true);

      expect(sidecar.validateToken).not.toHaveBeenCalled();
      expect(request.claims).toMatchObject({ jti: 'jti-1' });
    });

    it('asks the sidecar again for a token it refused', async () => {
      sidecar.validateToken.mockRejectedValue(new BearerError('invalid_token', 'token revoked'));
      await expect(guard.canActivate(contextFor(requestWith('Bearer abc')))).rejects.toBeInstanceOf(
        BearerError,
      );

      await expect(guard.canActivate(contextFor(requestWith('Bearer abc')))).rejects.toBeInstanceOf(
        BearerError,
      );

      expect(sidecar.validateToken).toHaveBeenCalledTimes(2);
    });

    it('does not keep an acceptance when a revocation arrived while the sidecar was asked', async () => {
      sidecar.validateToken.mockImplementation(async () => {
        cache.revoke({ kind: 'jti', value: 'jti-1', created_at: 0 });
        return claimsFactory();
      });
      await guard.canActivate(contextFor(requestWith('Bearer abc')));

      await guard.canActivate(contextFor(requestWith('Bearer abc')));

      expect(sidecar.validateToken).toHaveBeenCalledTimes(2);
    });

    it('asks the sidecar again, and fails closed with it, once the stream has dropped', async () => {
      sidecar.validateToken.mockResolvedValue(claimsFactory());
      await guard.canActivate(contextFor(requestWith('Bearer abc')));
      cache.goDark();
      sidecar.validateToken.mockRejectedValue(new DomainError('unavailable', 'down'));

      await expect(guard.canActivate(contextFor(requestWith('Bearer abc')))).rejects.toMatchObject({
        code: 'unavailable',
      });
    });
  });
});

describe(AdminGuard.name, () => {
  let sidecar: FakeSidecar;
  let guard: AdminGuard;

  beforeEach(() => {
    sidecar = fakeSidecar();
    guard = new AdminGuard(
      sidecar as unknown as SidecarClient,
      new ValidatedTokenCache(),
      darkVerifier(),
      new DpopResourceCheck('https://auth.example.test'),
    );
  });

  it('admits a token carrying admin.*', async () => {
    sidecar.validateToken.mockResolvedValue(claimsFactory({ scope: 'jobs.read admin.*' }));
    await expect(guard.canActivate(contextFor(requestWith('Bearer abc')))).resolves.toBe(true);
  });

  it('admits a user token with the global_admin role', async () => {
    sidecar.validateToken.mockResolvedValue(
      claimsFactory({ scope: '', roles: ['global_admin'], tenant: 't1', grant_id: 'g1' }),
    );
    await expect(guard.canActivate(contextFor(requestWith('Bearer abc')))).resolves.toBe(true);
  });

  it('refuses a user token carrying admin.* without the global_admin role', async () => {
    sidecar.validateToken.mockResolvedValue(
      claimsFactory({ scope: 'admin.*', roles: ['viewer'], tenant: 'globex', grant_id: 'g1' }),
    );
    await expect(guard.canActivate(contextFor(requestWith('Bearer abc')))).rejects.toMatchObject({
      code: 'insufficient_scope',
    });
  });

  it('refuses an app bound to a tenant even when it carries admin.*', async () => {
    sidecar.validateToken.mockResolvedValue(claimsFactory({ scope: 'admin.*', tenant: 'acme' }));
    await expect(guard.canActivate(contextFor(requestWith('Bearer abc')))).rejects.toMatchObject({
      code: 'insufficient_scope',
    });
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
