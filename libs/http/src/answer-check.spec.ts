import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Controller, Get, type LoggerService, Module, Param } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { DeclaresAuthority, NO_CREDENTIAL } from '@platform/contract';
import { checkAnswersAgainst } from './answer-check';
import { createHttpApp } from './create-http-app';

@Controller('widgets')
@DeclaresAuthority(NO_CREDENTIAL)
class WidgetsController {
  /** `good` answers the documented shape; any other id answers a count as a string. */
  @Get(':id')
  one(@Param('id') id: string): object {
    return id === 'good' ? { name: 'w', count: 1 } : { name: 'w', count: 'one' };
  }

  @Get()
  undocumentedStatus(): object {
    return [];
  }
}

@Module({ controllers: [WidgetsController] })
class WidgetsModule {}

const json = (schema: object) => ({ description: 'ok', content: { 'application/json': { schema } } });

const DOCUMENT = {
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  paths: {
    '/widgets/{id}': { get: { responses: { 200: json({ $ref: '#/components/schemas/Widget' }) } } },
    '/widgets': { get: { responses: { 201: json({ type: 'array' }) } } },
  },
  components: {
    schemas: {
      Widget: {
        type: 'object',
        required: ['name', 'count'],
        properties: {
          name: { type: 'string' },
          count: { type: 'integer' },
          note: { type: 'string', nullable: true },
        },
      },
    },
  },
} as unknown as OpenAPIObject;

const logger: LoggerService = { log: jest.fn(), error: jest.fn(), warn: jest.fn() };

describe('checking answers against the API document (test seam)', () => {
  let app: NestFastifyApplication;
  let dir: string;
  const misfits = () => {
    try {
      return readFileSync(join(dir, 'misfits'), 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
    } catch {
      return [];
    }
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'answer-check-'));
    app = await createHttpApp(WidgetsModule, { logger });
    checkAnswersAgainst(app, DOCUMENT, join(dir, 'misfits'));
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterEach(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes nothing for an answer of the documented shape (components resolved)', async () => {
    const answer = await app.inject({ method: 'GET', url: '/widgets/good' });
    expect(answer.json()).toEqual({ name: 'w', count: 1 });
    expect(misfits()).toEqual([]);
  });

  it('writes the operation and what is wrong for an answer that breaks its schema, and still sends it', async () => {
    const answer = await app.inject({ method: 'GET', url: '/widgets/bad' });
    expect(answer.statusCode).toBe(200);
    expect(misfits()).toEqual([
      {
        operation: 'GET /widgets/{id}',
        status: 200,
        errors: expect.stringContaining('count must be integer'),
      },
    ]);
  });

  it('writes a success status the operation does not document', async () => {
    await app.inject({ method: 'GET', url: '/widgets' });
    expect(misfits()).toEqual([
      { operation: 'GET /widgets', status: 200, errors: 'no JSON answer documented for this status' },
    ]);
  });

  it('leaves refusals alone', async () => {
    await app.inject({ method: 'GET', url: '/nowhere' });
    expect(misfits()).toEqual([]);
  });
});
