import { NotFoundException, PayloadTooLargeException, ServiceUnavailableException } from '@nestjs/common';
import { BearerError, DomainError, OAuthError } from '@platform/domain';
import { MissingBearerTokenError } from './bearer';
import { toErrorResponse } from './http-exception.filter';

const on = (url: string, headers: Record<string, string> = {}) => ({ url, headers });

describe('toErrorResponse', () => {
  describe('OAuthError', () => {
    it('answers invalid_grant as RFC 6749 JSON with status 400 and no-store', () => {
      const response = toErrorResponse(
        new OAuthError('invalid_grant', 'code expired'),
        on('/v1/oauth/token'),
      );
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'invalid_grant', error_description: 'code expired' });
      expect(response.headers).toMatchObject({
        'content-type': 'application/json',
        'cache-control': 'no-store',
        pragma: 'no-cache',
      });
      expect(response.logLine).toBeUndefined();
    });

    it.each([
      ['invalid_request', 400],
      ['invalid_scope', 400],
      ['unsupported_grant_type', 400],
      ['unauthorized_client', 400],
      ['server_error', 500],
      ['temporarily_unavailable', 503],
    ] as const)('answers %s with status %i', (code, status) => {
      expect(toErrorResponse(new OAuthError(code, 'x'), on('/v1/oauth/token')).status).toBe(status);
    });

    it('answers invalid_client with 401 and a Basic challenge when Basic credentials were tried', () => {
      const response = toErrorResponse(
        new OAuthError('invalid_client', 'bad secret'),
        on('/v1/oauth/token', { authorization: 'Basic YTpi' }),
      );
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Basic realm="oauth"');
    });

    it('answers invalid_client with 401 and no challenge when the credentials were in the form', () => {
      const response = toErrorResponse(new OAuthError('invalid_client', 'bad secret'), on('/v1/oauth/token'));
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBeUndefined();
    });
  });

  describe('BearerError', () => {
    it('answers a missing token with 401 and a challenge without an error attribute', () => {
      const response = toErrorResponse(new MissingBearerTokenError(), on('/v1/me'));
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="oauth"');
      expect(response.headers['content-type']).toBe('application/problem+json');
      expect(response.body).not.toHaveProperty('error');
    });

    it('answers invalid_token with 401, the RFC 6750 challenge and problem+json carrying the code', () => {
      const response = toErrorResponse(new BearerError('invalid_token', 'token expired'), on('/v1/me'));
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toBe(
        'Bearer realm="oauth", error="invalid_token", error_description="token expired"',
      );
      expect(response.body).toEqual({
        type: 'about:blank',
        title: 'Unauthorized',
        status: 401,
        detail: 'token expired',
        error: 'invalid_token',
      });
    });

    it('answers insufficient_scope with 403 and names the required scope', () => {
      const response = toErrorResponse(
        new BearerError('insufficient_scope', 'admin token required', 'admin.*'),
        on('/v1/oauth/apps'),
      );
      expect(response.status).toBe(403);
      expect(response.headers['www-authenticate']).toContain('error="insufficient_scope"');
      expect(response.headers['www-authenticate']).toContain('scope="admin.*"');
    });

    it('answers invalid_request with 400', () => {
      expect(toErrorResponse(new BearerError('invalid_request', 'two tokens'), on('/v1/me')).status).toBe(
        400,
      );
    });

    it('keeps quotes and backslashes out of the challenge', () => {
      const response = toErrorResponse(new BearerError('invalid_token', 'bad "kid" \\ here'), on('/v1/me'));
      expect(response.headers['www-authenticate']).toContain('error_description="bad  kid    here"');
    });
  });

  describe('DomainError', () => {
    it.each([
      ['not_found', 404, 'Not Found'],
      ['conflict', 409, 'Conflict'],
      ['validation_failed', 400, 'Bad Request'],
      ['unauthenticated', 401, 'Unauthorized'],
      ['forbidden', 403, 'Forbidden'],
      ['unavailable', 503, 'Service Unavailable'],
    ] as const)('answers %s as problem+json with status %i', (code, status, title) => {
      const response = toErrorResponse(new DomainError(code, 'app x'), on('/api/v1/apps/x'));
      expect(response.status).toBe(status);
      expect(response.headers['content-type']).toBe('application/problem+json');
      expect(response.body).toEqual({ type: 'about:blank', title, status, detail: 'app x' });
    });

    it('answers unavailable on an OAuth route as temporarily_unavailable', () => {
      const response = toErrorResponse(
        new DomainError('unavailable', 'control plane unreachable'),
        on('/v1/oauth/revoke'),
      );
      expect(response.status).toBe(503);
      expect(response.body).toEqual({
        error: 'temporarily_unavailable',
        error_description: 'control plane unreachable',
      });
    });

    it('keeps an internal-token failure on an internal OAuth route as 401 problem+json with no-store', () => {
      const response = toErrorResponse(
        new DomainError('unauthenticated', 'internal token'),
        on('/internal/v1/oauth/token'),
      );
      expect(response.status).toBe(401);
      expect(response.headers).toMatchObject({
        'content-type': 'application/problem+json',
        'cache-control': 'no-store',
      });
    });
  });

  describe('HttpException and fastify errors', () => {
    it('answers an unknown route as 404 problem+json', () => {
      const response = toErrorResponse(new NotFoundException('Cannot GET /nope'), on('/nope'));
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: 'Cannot GET /nope',
      });
    });

    it('answers a body over the limit as 413 problem+json', () => {
      const response = toErrorResponse(
        new PayloadTooLargeException('Request body is too large'),
        on('/v1/oauth/apps'),
      );
      expect(response.status).toBe(413);
      expect(response.headers['content-type']).toBe('application/problem+json');
    });

    it('answers a raw fastify error by its status code', () => {
      const error = Object.assign(new Error('Unsupported Media Type: application/xml'), {
        name: 'FastifyError',
        code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
        statusCode: 415,
      });
      const response = toErrorResponse(error, on('/v1/oauth/apps'));
      expect(response.status).toBe(415);
      expect(response.body).toMatchObject({ title: 'Unsupported Media Type' });
    });

    it.each(['/v1/oauth/token', '/v1/oauth/introspect', '/v1/oauth/revoke?x=1', '/internal/v1/oauth/token'])(
      'answers any 4xx on %s as 400 invalid_request with no-store',
      (url) => {
        const response = toErrorResponse(new PayloadTooLargeException('Request body is too large'), on(url));
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          error: 'invalid_request',
          error_description: 'Request body is too large',
        });
        expect(response.headers).toMatchObject({
          'content-type': 'application/json',
          'cache-control': 'no-store',
        });
      },
    );

    it('does not treat /v1/oauth/apps as an OAuth route', () => {
      expect(toErrorResponse(new NotFoundException(), on('/v1/oauth/apps/x')).headers['content-type']).toBe(
        'application/problem+json',
      );
    });

    it('answers a 5xx HttpException without detail and logs it', () => {
      const response = toErrorResponse(new ServiceUnavailableException('pool drained'), on('/v1/jwks'));
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ type: 'about:blank', title: 'Service Unavailable', status: 503 });
      expect(response.logLine).toContain('503');
    });
  });

  describe('unknown errors', () => {
    it('answers 500 problem+json with no detail', () => {
      const response = toErrorResponse(new TypeError('cannot read properties of undefined'), on('/v1/me'));
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500 });
      expect(response.logLine).toBe('TypeError: cannot read properties of undefined');
    });

    it('answers server_error on an OAuth route', () => {
      const response = toErrorResponse(new Error('boom'), on('/v1/oauth/token'));
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ error: 'server_error', error_description: 'Internal error' });
    });

    it('never leaks SQL, a stack, a token or a secret into the answer or the log line', () => {
      const sqlError = Object.assign(
        new Error('duplicate key value violates unique constraint: INSERT INTO "app" VALUES ($1) -- s3cr3t'),
        {
          name: 'QueryFailedError',
          query: 'INSERT INTO "app" ("secret_hash") VALUES ($1)',
          parameters: ['s3cr3t'],
        },
      );
      const response = toErrorResponse(sqlError, on('/api/v1/apps'));
      const everything = JSON.stringify(response);
      expect(response.body).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500 });
      expect(response.logLine).toBe('QueryFailedError');
      expect(everything).not.toMatch(/INSERT|s3cr3t|secret_hash|at Object/);
    });

    it('blanks tokens and credentials out of logged messages', () => {
      const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
      const response = toErrorResponse(
        new Error(`failed for ${jwt} with Basic YWRtaW46c2VjcmV0`),
        on('/v1/me'),
      );
      expect(response.logLine).toBe('Error: failed for [token] with Basic [credential]');
    });

    it('logs only the first line of a message and never the stack', () => {
      const error = new Error('first line\nsecond line');
      const response = toErrorResponse(error, on('/v1/me'));
      expect(response.logLine).toBe('Error: first line');
    });

    it('survives a thrown non-error', () => {
      expect(toErrorResponse('oops', on('/v1/me')).status).toBe(500);
    });
  });
});
