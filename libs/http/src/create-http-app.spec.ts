import { setTimeout as sleep } from 'node:timers/promises';
import {
  Controller,
  Get,
  Headers,
  HttpCode,
  type LoggerService,
  Module,
  Param,
  Post,
  Req,
} from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { INVALID_GRANT_DESCRIPTION, invalidGrant } from '@platform/domain';
import { correlationId } from '@platform/telemetry';
import { createHttpApp } from './create-http-app';
import type { PlatformRequest } from './request';

@Controller()
class EchoController {
  @Post('echo')
  @HttpCode(200)
  echo(@Req() request: PlatformRequest, @Headers('content-type') contentType?: string) {
    return { body: request.body ?? null, raw: request.rawBody ?? null, contentType: contentType ?? null };
  }

  @Post('v1/oauth/token')
  token(): never {
    throw new Error('not reached in these specs');
  }

  /** What code deep below the handler sees, after an await. */
  @Get('correlation')
  async correlation() {
    await sleep(1);
    return { correlationId: correlationId() ?? null };
  }

  @Post('v1/oauth/refused')
  refused(): never {
    throw invalidGrant('the code was issued to another client');
  }

  /** The client address every per-address limit keys on. */
  @Get('address')
  address(@Req() request: PlatformRequest) {
    return { ip: request.ip };
  }

  @Get('tenants/:tenant')
  tenant(@Param('tenant') tenant: string) {
    return { tenant };
  }

  @Post('explode')
  explode(): never {
    throw Object.assign(new Error('SELECT secret FROM app'), { name: 'QueryFailedError', query: 'SELECT 1' });
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

const silentLogger = (): jest.Mocked<LoggerService> => ({
  log: jest.fn(),
  error: jest.fn(),
  warn: jest.fn(),
});

describe('createHttpApp', () => {
  let app: NestFastifyApplication;
  let logger: jest.Mocked<LoggerService>;

  beforeAll(async () => {
    logger = silentLogger();
    app = await createHttpApp(EchoModule, { logger, bodyLimit: 1024 });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(async () => {
    await app.close();
  });

  it('keeps a form body as its raw text, for the route to parse once', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      payload: 'grant_type=client_credentials&scope=jobs.read+jobs.write&x=%2B',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      body: 'grant_type=client_credentials&scope=jobs.read+jobs.write&x=%2B',
      raw: 'grant_type=client_credentials&scope=jobs.read+jobs.write&x=%2B',
      contentType: 'application/x-www-form-urlencoded; charset=utf-8',
    });
  });

  it('parses JSON and keeps the raw text', async () => {
    const response = await app.inject({ method: 'POST', url: '/echo', payload: { a: 1 } });
    expect(response.json()).toEqual({ body: { a: 1 }, raw: '{"a":1}', contentType: 'application/json' });
  });

  it('treats an empty JSON body as no body', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ body: null });
  });

  it('answers malformed JSON with 400 problem+json', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('hands an unknown media type to the controller as raw text instead of answering 415', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ body: '<a/>', raw: '<a/>', contentType: 'application/xml' });
  });

  it('answers a body over the limit with 413 problem+json', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: `"${'a'.repeat(2048)}"`,
    });
    expect(response.statusCode).toBe(413);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('answers a body over the limit on the token endpoint with 400 invalid_request and no-store', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `a=${'a'.repeat(2048)}`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_request' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('routes path parameters up to 256 characters (tenant names reach 128) and refuses longer', async () => {
    const tenant = 't'.repeat(200);
    const routed = await app.inject({ method: 'GET', url: `/tenants/${tenant}` });
    expect(routed.json()).toEqual({ tenant });
    const refused = await app.inject({ method: 'GET', url: `/tenants/${'t'.repeat(257)}` });
    expect(refused.statusCode).toBe(414);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('answers an unknown route with 404 problem+json', async () => {
    const response = await app.inject({ method: 'GET', url: '/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ status: 404, title: 'Not Found' });
  });

  it('echoes a sane incoming request id', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/nope',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(response.headers['x-request-id']).toBe('abc-123');
  });

  it('replaces an unsafe request id with a fresh UUID', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/nope',
      headers: { 'x-request-id': 'a b\u0000<script>' },
    });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('makes the request id the correlation id of everything the handler awaits', async () => {
    const [first, second] = await Promise.all(
      ['req-a', 'req-b'].map((id) =>
        app.inject({ method: 'GET', url: '/correlation', headers: { 'x-request-id': id } }),
      ),
    );
    expect(first.json()).toEqual({ correlationId: 'req-a' });
    expect(second.json()).toEqual({ correlationId: 'req-b' });
  });

  it('answers an unexpected failure with a bare 500 and logs only the error name of a database error', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/explode',
      headers: { 'x-request-id': 'req-1' },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500 });
    expect(logger.error).toHaveBeenCalledWith(
      '[req-1] POST /explode: QueryFailedError',
      'HttpExceptionFilter',
    );
    expect(JSON.stringify(logger.error.mock.calls)).not.toContain('SELECT');
  });

  it('sends a refused grant with the generic description and logs its reason with the request id', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/oauth/refused',
      headers: { 'x-request-id': 'req-2' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'invalid_grant', error_description: INVALID_GRANT_DESCRIPTION });
    expect(response.body).not.toContain('the code was issued');
    expect(logger.log).toHaveBeenCalledWith(
      '[req-2] POST /v1/oauth/refused: invalid_grant: the code was issued to another client',
      'HttpExceptionFilter',
    );
  });
});

describe('createHttpApp: the client address behind proxies', () => {
  const addressSeen = async (
    trustProxy: string[] | undefined,
    remoteAddress: string,
    forwardedFor?: string,
  ) => {
    const app = await createHttpApp(EchoModule, { logger: silentLogger(), trustProxy });
    await app.init();
    try {
      const response = await app.inject({
        method: 'GET',
        url: '/address',
        remoteAddress,
        headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
      });
      return (response.json() as { ip: string }).ip;
    } finally {
      await app.close();
    }
  };

  it('ignores X-Forwarded-For by default: a client cannot forge its address', async () => {
    await expect(addressSeen(undefined, '198.51.100.7', '203.0.113.1')).resolves.toBe('198.51.100.7');
    await expect(addressSeen([], '198.51.100.7', '203.0.113.1')).resolves.toBe('198.51.100.7');
  });

  it('takes the client from X-Forwarded-For when the peer is a trusted proxy', async () => {
    await expect(addressSeen(['10.0.0.0/8'], '10.1.2.3', '203.0.113.1')).resolves.toBe('203.0.113.1');
    // What the client itself wrote before the trusted proxy appended its peer is not believed.
    await expect(addressSeen(['10.0.0.0/8'], '10.1.2.3', '192.0.2.9, 203.0.113.1')).resolves.toBe(
      '203.0.113.1',
    );
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    await expect(addressSeen(['10.0.0.0/8'], '198.51.100.7', '203.0.113.1')).resolves.toBe('198.51.100.7');
  });

  it('walks back through every trusted proxy to the first address it does not trust', async () => {
    const trusted = ['10.0.0.0/8', '192.168.0.0/16'];
    await expect(addressSeen(trusted, '10.1.2.3', '203.0.113.1, 192.168.4.4')).resolves.toBe('203.0.113.1');
  });
});
