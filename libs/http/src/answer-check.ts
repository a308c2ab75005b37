import { appendFileSync } from 'node:fs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import Ajv, { type ValidateFunction } from 'ajv';
import type { FastifyReply, FastifyRequest } from 'fastify';

const COMPONENT = '#/components/schemas/';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
/** Writes a misfit's errors; the text needs no schema of its own. */
const ERRORS = new Ajv();

/**
 * The test seam `TEST_ANSWER_CHECK_FILE` (production refuses it): every JSON success body the
 * app sends is checked against the schema its document gives that operation and status, so the
 * end-to-end suites prove the document true for every answer they see. A misfit is appended to
 * `file` as one JSON line (the test harness reads it when it stops the platform); the answer
 * itself goes out unchanged.
 */
export function checkAnswersAgainst(
  app: NestFastifyApplication,
  document: OpenAPIObject,
  file: string,
): void {
  const validators = compileAnswerSchemas(document);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const misfit = misfitOf(validators, request, reply, payload);
      if (misfit !== undefined) appendFileSync(file, `${JSON.stringify(misfit)}\n`);
      return payload;
    });
}

interface Misfit {
  operation: string;
  status: number;
  errors: string;
}

/**
 * `GET /v1/oauth/apps/{id} 200` -> the compiled schema of its JSON answer; `GET /v1/oauth/apps/{id}`
 * -> undefined for each documented operation (so an undocumented status is told from a route the
 * document leaves out, as it does `/openapi.json` itself).
 */
function compileAnswerSchemas(document: OpenAPIObject): Map<string, ValidateFunction | undefined> {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: 'api', definitions: localised(document.components?.schemas ?? {}, '#/definitions/') });
  const validators = new Map<string, ValidateFunction | undefined>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      if (item[method] !== undefined) validators.set(`${method.toUpperCase()} ${path}`, undefined);
      for (const [status, response] of Object.entries(item[method]?.responses ?? {})) {
        const schema = (response as { content?: Record<string, { schema?: object }> }).content?.[
          'application/json'
        ]?.schema;
        if (schema === undefined || !status.startsWith('2')) continue;
        validators.set(
          `${method.toUpperCase()} ${path} ${status}`,
          lazily(ajv, localised(schema, 'api#/definitions/')),
        );
      }
    }
  }
  return validators;
}

function misfitOf(
  validators: Map<string, ValidateFunction | undefined>,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Misfit | undefined {
  const type = String(reply.getHeader('content-type') ?? '');
  if (reply.statusCode < 200 || reply.statusCode > 299 || !type.startsWith('application/json'))
    return undefined;
  const path = (request.routeOptions.url ?? '').replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  const operation = `${request.method} ${path}`;
  if (!validators.has(operation)) return undefined;
  const validate = validators.get(`${operation} ${reply.statusCode}`);
  if (validate === undefined) {
    return { operation, status: reply.statusCode, errors: 'no JSON answer documented for this status' };
  }
  let body: unknown;
  try {
    body = JSON.parse(typeof payload === 'string' ? payload : String(payload));
  } catch {
    return { operation, status: reply.statusCode, errors: 'the body is not JSON' };
  }
  if (validate(body)) return undefined;
  return { operation, status: reply.statusCode, errors: ERRORS.errorsText(validate.errors) };
}

/** Compiled on first use: a process started by a suite meets few of the operations. */
function lazily(ajv: Ajv, schema: object): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = ((body: unknown) => {
    compiled ??= ajv.compile(schema);
    const valid = compiled(body);
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  return validate;
}

/** `schema` with each component reference pointed at `prefix` (Ajv resolves within one schema). */
function localised<T>(schema: T, prefix: string): T {
  return JSON.parse(JSON.stringify(schema).replaceAll(`"${COMPONENT}`, `"${prefix}`)) as T;
}
