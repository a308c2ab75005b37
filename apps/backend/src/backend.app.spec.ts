import type { LoggerService } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BearerError, DomainError } from '@platform/domain';
import { createHttpApp } from '@platform/http';
import { correlationId } from '@platform/telemetry';
import { BackendModule } from './backend.module';
import { ControlPlaneClient } from './clients/control-plane.client';
import { SidecarClient } from './clients/sidecar.client';
import {
  claimsFactory,
  type FakeControlPlane,
  fakeControlPlane,
  type FakeSidecar,
  fakeSidecar,
  testConfig,
  upstream,
  withProviders,
} from './testing/fakes';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const ADMIN = { authorization: 'Bearer admin-token' };

describe('backend HTTP surface', () => {
  let app: NestFastifyApplication;
  let sidecar: FakeSidecar;
  let controlPlane: FakeControlPlane;
  let logger: jest.Mocked<LoggerService>;

  beforeAll(async () => {
    sidecar = fakeSidecar();
    controlPlane = fakeControlPlane();
    logger = { log: jest.fn(), error: jest.fn(), warn: jest.fn(), debug: jest.fn(), verbose: jest.fn() };
    const module = withProviders(BackendModule.forRoot(testConfig()), [
      { provide: SidecarClient, useValue: sidecar },
      { provide: ControlPlaneClient, useValue: controlPlane },
    ]);
    app = await createHttpApp(module, { logger, bodyLimit: 4096 });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(async () => {
    await app.close();
  });

  beforeEach(() => {
    jest.clearAllMocks();
    sidecar.syncRevocations.mockResolvedValue(0);
    sidecar.state.mockResolvedValue('connected');
    sidecar.validateToken.mockImplementation(async (token) => {
      if (token === 'admin-token')
        return claimsFactory({ sub: 'admin', client_id: 'admin', scope: 'admin.*' });
      if (token === 'user-token')
        return claimsFactory({ scope: 'jobs.read', tenant: 'acme', roles: ['user'] });
      throw new BearerError('invalid_token', 'signature verification failed');
    });
  });

  describe('POST /v1/oauth/token', () => {
    it('forwards the raw form and the Authorization header and relays the answer', async () => {
      let correlation: string | undefined;
      controlPlane.issueToken.mockImplementation(async () => {
        correlation = correlationId();
        return upstream(
          200,
          { access_token: 'at', token_type: 'Bearer', expires_in: 3600 },
          { 'cache-control': 'no-store', pragma: 'no-cache' },
        );
      });
      const response = await app.inject({
        method: 'POST',
        url: '/v1/oauth/token',
        headers: { ...FORM, authorization: 'Basic d29ya2VyOnNlY3JldA==', 'x-request-id': 'req-42' },
        payload: 'grant_type=client_credentials&scope=jobs.read',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ access_token: 'at', token_type: 'Bearer', expires_in: 3600 });
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers.pragma).toBe('no-cache');
      expect(controlPlane.issueToken).toHaveBeenCalledWith(
        'grant_type=client_credentials&scope=jobs.read',
        'Basic d29ya2VyOnNlY3JldA==',
      );
      // The control plane client sends the correlation id with the request.
      expect(correlation).toBe('req-42');
    });

    it('forwards a DPoP proof with the path it was sent to, and relays DPoP-Nonce (RFC 9449)', async () => {
      controlPlane.issueToken.mockResolvedValue(
        upstream(200, { access_token: 'at', token_type: 'DPoP', expires_in: 3600 }, { 'dpop-nonce': 'n-1' }),
      );
      const response = await app.inject({
        method: 'POST',
        url: '/v1/oauth/token?ignored=1',
        headers: { ...FORM, dpop: 'a.b.c' },
        payload: 'grant_type=client_credentials&client_id=w&client_secret=s',
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['dpop-nonce']).toBe('n-1');
      expect(controlPlane.issueToken).toHaveBeenCalledWith(
        'grant_type=client_credentials&client_id=w&client_secret=s',
        undefined,
        { proof: 'a.b.c', path: '/v1/oauth/token' },
      );
    });

    it('relays an RFC 6749 error with its status and challenge', async () => {
      controlPlane.issueToken.mockResolvedValue(
        upstream(
          401,
          { error: 'invalid_client' },
          { 'cache-control': 'no-store', 'www-authenticate': 'Basic realm="oauth"' },
        ),
      );
      const response = await app.inject({
        method: 'POST',
        url: '/v1/oauth/token',
        headers: FORM,
        payload: 'grant_type=client_credentials',
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Basic realm="oauth"');
    });

    it('refuses a JSON body with 400 invalid_request without calling the control plane', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/oauth/token',
        payload: { grant_type: 'client_credentials' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'invalid_request',
        error_description: expect.stringContaining('x-www-form-urlencoded'),
      });
      expect(response.headers['cache-control']).toBe('no-store');
      expect(controlPlane.issueToken).not.toHaveBeenCalled();
    });

    it('refuses a body without a content type with 400 invalid_request', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/oauth/token',
        payload: 'grant_type=client_credentials',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_request' });
    });

    it('answers an oversized body with 400 invalid_request, never 500', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/oauth/token',
        headers: FORM,
        payload: `scope=${'a'.repeat(8192)}`,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_request' });
      expect(controlPlane.issueToken).not.toHaveBeenCalled();
    });

    it('answers 503 temporarily_unavailable when the control plane is unreachable', async () => {
      controlPlane.issueToken.mockRejectedValue(
        new DomainError('unavailable', 'The control plane is unavailable'),
      );
      const response = await app.inject({
        method: 'POST',
        url: '/v1/oauth/token',
        headers: FORM,
        payload: 'grant_type=client_credentials',
      });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        error: 'temporarily_unavailable',
        error_description: 'The control plane is unavailable',
      });
    });
  });

  describe('POST /v1/oauth/introspect', () => {
    it('forwards to the internal introspection endpoint', async () => {
      controlPlane.request.mockResolvedValue(upstream(200, { active: false }));
      const response = await app.inject({
        method: 'POST',
        url: '/v1/oauth/introspect',
        headers: FORM,
        payload: 'token=x',
      });
      expect(response.json()).toEqual({ active: false });
      expect(controlPlane.request).toHaveBeenCalledWith(
        expect.objectContaining({ path: '/internal/v1/oauth/introspect', body: 'token=x' }),
      );
    });
  });

  describe('POST /v1/oauth/revoke', () => {
    it('syncs the local sidecar before answering a successful revocation', async () => {
      controlPlane.request.mockResolvedValue(upstream(200, {}));
      const response = await app.inject({
        method: 'POST',
        url: '/v1/oauth/revoke',
        headers: { ...FORM, 'x-request-id': 'rev-1' },
        payload: 'token=x',
      });
      expect(response.statusCode).toBe(200);
      expect(sidecar.syncRevocations).toHaveBeenCalledTimes(1);
    });

    it('still answers 200 and logs a warning when the sidecar cannot be synced', async () => {
      controlPlane.request.mockResolvedValue(upstream(200, {}));
      sidecar.syncRevocations.mockRejectedValue(
        new DomainError('unavailable', 'SyncRevocations failed: UNAVAILABLE'),
      );
      const response = await app.inject({
        method: 'POST',
        url: '/v1/oauth/revoke',
        headers: FORM,
        payload: 'token=x',
      });
      expect(response.statusCode).toBe(200);
      expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('not synced'), 'LocalRevocation');
    });

    it('does not sync the sidecar when the revocation was refused', async () => {
      controlPlane.request.mockResolvedValue(upstream(401, { error: 'invalid_client' }));
      const response = await app.inject({
        method: 'POST',
        url: '/v1/oauth/revoke',
        headers: FORM,
        payload: 'token=x',
      });
      expect(response.statusCode).toBe(401);
      expect(sidecar.syncRevocations).not.toHaveBeenCalled();
    });
  });

  describe('GET /v1/jwks', () => {
    it('relays the key set with a one-minute public cache', async () => {
      controlPlane.request.mockResolvedValue(upstream(200, { keys: [] }, { 'cache-control': 'no-cache' }));
      const response = await app.inject({ method: 'GET', url: '/v1/jwks' });
      expect(response.json()).toEqual({ keys: [] });
      expect(response.headers['cache-control']).toBe('public, max-age=60');
      expect(controlPlane.request).toHaveBeenCalledWith(
        expect.objectContaining({ method: 'GET', path: '/api/v1/jwks' }),
      );
    });

    it('answers 503 problem+json when the control plane is unreachable', async () => {
      controlPlane.request.mockRejectedValue(
        new DomainError('unavailable', 'The control plane is unavailable'),
      );
      const response = await app.inject({ method: 'GET', url: '/v1/jwks' });
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    });
  });

  describe('GET /v1/me', () => {
    it('answers the claims of a valid token', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/v1/me',
        headers: { authorization: 'Bearer user-token' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        sub: 'worker',
        client_id: 'worker',
        scope: 'jobs.read',
        tenant: 'acme',
        roles: ['user'],
        exp: 2_000_000_000,
      });
    });

    it('answers the actor chain and the impersonation mode as the token carries them', async () => {
      sidecar.validateToken.mockResolvedValue(
        claimsFactory({
          act: { sub: 'support-1', client_id: 'console', act: { sub: 'gateway', client_id: '', act: null } },
          impersonation: 'read_only',
        }),
      );
      const response = await app.inject({
        method: 'GET',
        url: '/v1/me',
        headers: { authorization: 'Bearer impersonation-token' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        act: { sub: 'support-1', client_id: 'console', act: { sub: 'gateway' } },
        impersonation: 'read_only',
      });
      expect(response.json().act.act).toEqual({ sub: 'gateway' });
    });

    it('answers a missing token with 401 and a bare Bearer challenge', async () => {
      const response = await app.inject({ method: 'GET', url: '/v1/me' });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="oauth"');
      expect(sidecar.validateToken).not.toHaveBeenCalled();
    });

    it('answers a refused token with 401 invalid_token', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/v1/me',
        headers: { authorization: 'Bearer forged' },
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
      expect(response.json()).toMatchObject({ error: 'invalid_token', status: 401 });
    });

    it('fails closed with 503 when the sidecar is unavailable', async () => {
      sidecar.validateToken.mockRejectedValue(
        new DomainError('unavailable', 'Token validation is unavailable'),
      );
      const response = await app.inject({
        method: 'GET',
        url: '/v1/me',
        headers: { authorization: 'Bearer user-token' },
      });
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    });
  });

  describe('/api/v1/auth/validate', () => {
    const RESOURCE = 'https://api.reports.example';

    it('asks the sidecar about the audience the caller names, in the body and the query', async () => {
      sidecar.validateToken.mockResolvedValue(claimsFactory({ aud: RESOURCE }));

      const posted = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/validate',
        payload: { token: 'resource-token', audience: RESOURCE },
      });
      const queried = await app.inject({
        method: 'GET',
        url: `/api/v1/auth/validate?token=resource-token&audience=${encodeURIComponent(RESOURCE)}`,
      });

      for (const response of [posted, queried]) {
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ active: true, sub: 'worker' });
      }
      expect(sidecar.validateToken.mock.calls).toEqual([
        ['resource-token', RESOURCE],
        ['resource-token', RESOURCE],
      ]);
    });

    it('asks for the issuer when no audience is named, and answers inactive what the sidecar refuses', async () => {
      sidecar.validateToken.mockRejectedValue(new BearerError('invalid_token', 'wrong audience'));

      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/validate',
        payload: { token: 'resource-token' },
      });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ active: false });
      expect(sidecar.validateToken).toHaveBeenCalledWith('resource-token', '');
    });

    it('refuses an audience that is not one string with 400', async () => {
      const posted = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/validate',
        payload: { token: 'resource-token', audience: [RESOURCE] },
      });
      const queried = await app.inject({
        method: 'GET',
        url: '/api/v1/auth/validate?token=t&audience=a&audience=b',
      });

      expect(posted.statusCode).toBe(400);
      expect(queried.statusCode).toBe(400);
      expect(sidecar.validateToken).not.toHaveBeenCalled();
    });
  });

  describe('GET /v1/ping', () => {
    it('answers without a token', async () => {
      const response = await app.inject({ method: 'GET', url: '/v1/ping' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ok: true });
    });
  });

  describe('/v1/oauth/apps', () => {
    it('refuses a missing token with 401 and a bare Bearer challenge', async () => {
      const response = await app.inject({ method: 'GET', url: '/v1/oauth/apps' });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="oauth"');
      expect(controlPlane.request).not.toHaveBeenCalled();
    });

    it('refuses a non-admin token with 403 insufficient_scope without calling the control plane', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/v1/oauth/apps',
        headers: { authorization: 'Bearer user-token' },
      });
      expect(response.statusCode).toBe(403);
      expect(response.headers['www-authenticate']).toContain('error="insufficient_scope"');
      expect(response.json()).toMatchObject({ error: 'insufficient_scope' });
      expect(controlPlane.request).not.toHaveBeenCalled();
    });

    it('answers 503 and never calls the control plane when the sidecar is unavailable', async () => {
      sidecar.validateToken.mockRejectedValue(
        new DomainError('unavailable', 'Token validation is unavailable'),
      );
      const response = await app.inject({ method: 'DELETE', url: '/v1/oauth/apps/worker', headers: ADMIN });
      expect(response.statusCode).toBe(503);
      expect(controlPlane.request).not.toHaveBeenCalled();
    });

    it('lists apps with limit and after passed through and the next link made public', async () => {
      controlPlane.request.mockResolvedValue(
        upstream(200, [{ client_id: 'a' }], { link: '</api/v1/apps?limit=1&after=a>; rel="next"' }),
      );
      const response = await app.inject({
        method: 'GET',
        url: '/v1/oauth/apps?limit=1&after=0&evil=1',
        headers: ADMIN,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers.link).toBe(
        '<https://auth.example.test/v1/oauth/apps?limit=1&after=a>; rel="next"',
      );
      const call = controlPlane.request.mock.calls[0][0];
      expect(call).toMatchObject({
        method: 'GET',
        path: '/api/v1/apps',
        authorization: 'Bearer admin-token',
      });
      expect(call.query?.toString()).toBe('limit=1&after=0');
    });

    it('registers an app from a JSON body with the caller admin token', async () => {
      controlPlane.request.mockResolvedValue(upstream(201, { client_id: 'worker', client_secret: 's' }));
      const body = JSON.stringify({
        client_id: 'worker',
        name: 'W',
        declared_scopes: ['jobs.read'],
        app_type: 'service',
      });
      const response = await app.inject({
        method: 'POST',
        url: '/v1/oauth/apps',
        headers: { ...ADMIN, 'content-type': 'application/json' },
        payload: body,
      });
      expect(response.statusCode).toBe(201);
      expect(controlPlane.request).toHaveBeenCalledWith(
        expect.objectContaining({
          method: 'POST',
          path: '/api/v1/apps',
          body,
          contentType: 'application/json',
          authorization: 'Bearer admin-token',
        }),
      );
    });

    it('refuses a form body at registration with 415 problem+json', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/oauth/apps',
        headers: { ...ADMIN, ...FORM },
        payload: 'client_id=x',
      });
      expect(response.statusCode).toBe(415);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(controlPlane.request).not.toHaveBeenCalled();
    });

    it('answers an oversized registration with 413 problem+json, never 500', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/oauth/apps',
        headers: { ...ADMIN, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'a'.repeat(8192) }),
      });
      expect(response.statusCode).toBe(413);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    });

    it('deletes an app with 204 and syncs the local sidecar', async () => {
      controlPlane.request.mockResolvedValue(upstream(204));
      const response = await app.inject({ method: 'DELETE', url: '/v1/oauth/apps/worker', headers: ADMIN });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(controlPlane.request).toHaveBeenCalledWith(
        expect.objectContaining({ method: 'DELETE', path: '/api/v1/apps/worker' }),
      );
      expect(sidecar.syncRevocations).toHaveBeenCalled();
    });

    it('relays a 404 for an unknown app without syncing the sidecar', async () => {
      controlPlane.request.mockResolvedValue(
        upstream(404, { title: 'Not Found' }, { 'content-type': 'application/problem+json' }),
      );
      const response = await app.inject({ method: 'DELETE', url: '/v1/oauth/apps/ghost', headers: ADMIN });
      expect(response.statusCode).toBe(404);
      expect(sidecar.syncRevocations).not.toHaveBeenCalled();
    });

    it('rotates a secret through the control plane', async () => {
      controlPlane.request.mockResolvedValue(
        upstream(200, { client_id: 'worker', client_secret: 'new', rotated_at: 'now' }),
      );
      const response = await app.inject({
        method: 'POST',
        url: '/v1/oauth/apps/worker/rotate-secret',
        headers: ADMIN,
      });
      expect(response.statusCode).toBe(200);
      expect(controlPlane.request).toHaveBeenCalledWith(
        expect.objectContaining({ method: 'POST', path: '/api/v1/apps/worker/rotate-secret' }),
      );
    });

    it('answers 503 problem+json when the control plane is unreachable', async () => {
      controlPlane.request.mockRejectedValue(
        new DomainError('unavailable', 'The control plane is unavailable'),
      );
      const response = await app.inject({ method: 'GET', url: '/v1/oauth/apps', headers: ADMIN });
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    });
  });

  describe('/api/v1/scopes and /api/v1/token-events', () => {
    it('forwards a scope definition to the control plane', async () => {
      controlPlane.request.mockResolvedValue(upstream(201, { name: 'billing.read' }));
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/scopes',
        headers: { ...ADMIN, 'content-type': 'application/json' },
        payload: { name: 'billing.read', description: 'Read invoices' },
      });
      expect(response.statusCode).toBe(201);
      expect(controlPlane.request).toHaveBeenCalledWith(
        expect.objectContaining({ method: 'POST', path: '/api/v1/scopes' }),
      );
    });

    it('refuses a non-admin token on the token event stream', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/api/v1/token-events',
        headers: { authorization: 'Bearer user-token' },
      });
      expect(response.statusCode).toBe(403);
    });

    it('passes the token event filters through', async () => {
      controlPlane.request.mockResolvedValue(upstream(200, { events: [], next_after: 0 }));
      await app.inject({
        method: 'GET',
        url: '/api/v1/token-events?after=5&client_id=worker',
        headers: ADMIN,
      });
      expect(controlPlane.request.mock.calls[0][0].query?.toString()).toBe('after=5&client_id=worker');
    });
  });

  describe('POST /api/v1/keys/rotate', () => {
    it('forwards the rotation with the caller admin token and relays 201', async () => {
      controlPlane.request.mockResolvedValue(
        upstream(201, { kid: 'k2', created_at: '2026-05-21T00:00:00Z' }),
      );
      const response = await app.inject({ method: 'POST', url: '/api/v1/keys/rotate', headers: ADMIN });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({ kid: 'k2', created_at: '2026-05-21T00:00:00Z' });
      expect(controlPlane.request).toHaveBeenCalledWith({
        method: 'POST',
        path: '/api/v1/keys/rotate',
        authorization: 'Bearer admin-token',
      });
    });

    it('refuses a non-admin token with 403 without calling the control plane', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/keys/rotate',
        headers: { authorization: 'Bearer user-token' },
      });
      expect(response.statusCode).toBe(403);
      expect(controlPlane.request).not.toHaveBeenCalled();
    });

    it('refuses a missing token with 401', async () => {
      const response = await app.inject({ method: 'POST', url: '/api/v1/keys/rotate' });
      expect(response.statusCode).toBe(401);
      expect(controlPlane.request).not.toHaveBeenCalled();
    });
  });

  describe('GET /health', () => {
    it('answers 200 ok when the sidecar is serving', async () => {
      const response = await app.inject({ method: 'GET', url: '/health' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok', sidecar: 'connected', version: '0.9.0' });
    });

    it('answers 503 degraded when the sidecar is down', async () => {
      sidecar.state.mockResolvedValue('unavailable');
      const response = await app.inject({ method: 'GET', url: '/health' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ status: 'degraded', sidecar: 'unavailable', version: '0.9.0' });
    });
  });

  describe('GET /.well-known/oauth-authorization-server', () => {
    it('serves the RFC 8414 document for the configured issuer', async () => {
      const response = await app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        issuer: 'https://auth.example.test',
        token_endpoint: 'https://auth.example.test/v1/oauth/token',
      });
    });
  });

  describe('routes the backend does not serve', () => {
    it('answers an internal route with 404 problem+json', async () => {
      const response = await app.inject({ method: 'POST', url: '/internal/v1/revocations', payload: {} });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    });
  });
});
