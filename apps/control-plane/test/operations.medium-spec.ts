import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallHandler, ExecutionContext, LoggerService, NestInterceptor } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  ADMIN_AUDIT_OPERATIONS,
  allOperations,
  AUDIT_CHECKPOINT_OPERATIONS,
  CONTROL_PLANE_PROBE_OPERATIONS,
  FLAG_OPERATIONS,
  IMPERSONATION_POLICY_OPERATIONS,
  internalPathOf,
  KEY_SET_OPERATIONS,
  type Operation,
  routeHandlersOf,
  SCIM_OPERATIONS,
  SCOPE_OPERATIONS,
  SECRET_OPERATIONS,
} from '@platform/contract';
import { controllersOf, createHttpApp } from '@platform/http';
import { encodePrincipal, PRINCIPAL_HEADER, type PrincipalClaims } from '@platform/internal';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { ControlPlaneModule } from '../src/app.module';
import { IMPLEMENTED_OPERATIONS } from '../src/platform/implements';
import { createValidationPipe } from '../src/validation';

/**
 * Every operation of the tables (libs/contract, `allOperations()`) against the real control plane,
 * in-process on its embedded SQLite: the guard of its caller kind applies (no credential, or the
 * other kind's, is refused before the handler), malformed input is refused as problem details
 * (the SCIM error format on the SCIM routes), and representative operations answer their entry's
 * status. The guards and the pipe are the
 * database's business nowhere, so SQLite alone.
 */

const INTERNAL_TOKEN = 'internal-token-of-the-operations-spec-0123';
const ADMIN_CLIENT_ID = 'platform-admin';
const ADMIN_CLIENT_SECRET = 'admin-secret-of-the-operations-spec';
/** Past the router's `maxParamLength` (libs/http, createHttpApp): refused with 414. */
const OVERLONG_PARAM = 'x'.repeat(257);

const entries = allOperations();
const guarded = entries.filter(({ caller }) => caller.kind !== 'public');
const publicEntries = entries.filter(({ caller }) => caller.kind === 'public');
const withBody = entries.filter((entry) => entry.body !== undefined);
/** The parameters of the entry's control-plane path. */
const paramsOf = (entry: Operation) => [...internalPathOf(entry).matchAll(/:(\w+)/g)].map(([, name]) => name);
const withParams = entries.filter((entry) => paramsOf(entry).length > 0);

const SCIM_ENTRIES: readonly Operation[] = Object.values(SCIM_OPERATIONS);

/** The entries whose control-plane handler takes a `@Body()`, the DTO the pipe checks. */
const readingABody = controllersOf(ControlPlaneModule).flatMap((controller) =>
  routeHandlersOf(controller)
    .filter(([name]) =>
      Object.keys(Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}).some((key) =>
        key.startsWith(`${RouteParamtypes.BODY}:`),
      ),
    )
    .flatMap(([, handler]) => (Reflect.getMetadata(IMPLEMENTED_OPERATIONS, handler) ?? []) as Operation[]),
);

const row = (entry: Operation) => ({ name: `${entry.id} ${entry.method} /${internalPathOf(entry)}`, entry });

/** The entry's control-plane URL, each parameter from `fill`, else its example, else a sample. */
function urlOf(entry: Operation, fill: Record<string, string> = {}): string {
  return `/${internalPathOf(entry)}`.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(
      fill[name] ?? String(entry.params?.[name]?.example ?? (name === 'tenant' ? 'acme' : 'sample')),
    ),
  );
}

const bodyType = (entry: Operation) =>
  entry.body?.type === 'scim' ? 'application/scim+json' : 'application/json';

interface DocumentedMember {
  name: string;
  required?: boolean;
  example?: unknown;
}

/** The members of the body's DTO, as its OpenAPI decorators document them (none undeclared). */
function membersOf(entry: Operation): DocumentedMember[] {
  if (entry.body === undefined) return [];
  const prototype = entry.body.model.prototype as object;
  const names = (Reflect.getMetadata('swagger/apiModelPropertiesArray', prototype) ?? []) as string[];
  return names.map((documented) => {
    const name = documented.replace(/^:/, '');
    return { name, ...(Reflect.getMetadata('swagger/apiModelProperties', prototype, name) as object) };
  });
}

/**
 * The members a body must have: those its OpenAPI decorators document as required, and those its
 * class-validator rules check unconditionally (the internal bodies document nothing).
 */
function requiredMembersOf(entry: Operation): string[] {
  if (entry.body === undefined) return [];
  const documented = membersOf(entry).filter(({ required }) => required !== false);
  const rules = getMetadataStorage().getTargetValidationMetadatas(entry.body.model, '', true, false);
  const optional = new Set(
    rules
      .filter(({ type }) => type === ValidationTypes.CONDITIONAL_VALIDATION)
      .map(({ propertyName }) => propertyName),
  );
  const checked = rules
    .filter(
      ({ type }) => type !== ValidationTypes.WHITELIST && type !== ValidationTypes.CONDITIONAL_VALIDATION,
    )
    .map(({ propertyName }) => propertyName)
    .filter((name) => !optional.has(name));
  return [...new Set([...documented.map(({ name }) => name), ...checked])];
}

/** A body of the documented examples of the DTO's members. */
const exampleBodyOf = (entry: Operation) =>
  Object.fromEntries(
    membersOf(entry)
      .filter(({ example }) => example !== undefined)
      .map(({ name, example }) => [name, example]),
  );

const GLOBAL_ADMIN: PrincipalClaims = { sub: ADMIN_CLIENT_ID, client_id: ADMIN_CLIENT_ID, scope: 'admin.*' };
const ACME_TENANT_ADMIN: PrincipalClaims = {
  sub: 'user-ada',
  client_id: 'acme-portal',
  tenant: 'acme',
  roles: ['tenant_admin'],
  scope: 'openid',
  grant_id: 'grant-ada',
};

/** Records each handler a request reaches: interceptors run after the guards, before the pipes. */
class ReachedHandlers implements NestInterceptor {
  readonly reached: string[] = [];
  intercept(context: ExecutionContext, next: CallHandler) {
    this.reached.push(`${context.getClass().name}.${context.getHandler().name}`);
    return next.handle();
  }
}

/** Errors only: the refusals this spec provokes by the hundred are expected. */
const quietLogger: LoggerService = {
  log: () => undefined,
  warn: () => undefined,
  error: (...args: unknown[]) => console.error(...args),
};

describe('every operation of the control plane', () => {
  const env = {
    DATA_DIR: mkdtempSync(join(tmpdir(), 'control-plane-operations-')),
    INTERNAL_TOKEN,
    ADMIN_CLIENT_ID,
    ADMIN_CLIENT_SECRET,
  };
  const savedEnv = { ...process.env };
  const handlers = new ReachedHandlers();
  let app: NestFastifyApplication;
  let adminToken: string;

  beforeAll(async () => {
    delete process.env.DATABASE_URL;
    Object.assign(process.env, env);
    app = await createHttpApp(ControlPlaneModule, { logger: quietLogger });
    app.useGlobalPipes(createValidationPipe());
    app.useGlobalInterceptors(handlers);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    adminToken = await issueAdminToken();
  });
  afterAll(async () => {
    await app?.close();
    process.env = savedEnv;
    rmSync(env.DATA_DIR, { recursive: true, force: true });
  });
  beforeEach(() => handlers.reached.splice(0));

  const inject = (options: InjectOptions) => app.inject(options) as Promise<LightMyRequestResponse>;
  const internal = (principal?: PrincipalClaims) => ({
    'x-internal-token': INTERNAL_TOKEN,
    ...(principal === undefined ? {} : { [PRINCIPAL_HEADER]: encodePrincipal(principal) }),
  });
  const admin = () => ({ authorization: `Bearer ${adminToken}` });
  /** The credential an entry's caller kind is served with. */
  const credentialOf = (entry: Operation) =>
    entry.caller.kind === 'admin' ? admin() : internal(GLOBAL_ADMIN);

  /** A client_credentials token of the bootstrap admin app, through the control plane's own token route. */
  async function issueAdminToken(): Promise<string> {
    const basic = Buffer.from(`${ADMIN_CLIENT_ID}:${ADMIN_CLIENT_SECRET}`).toString('base64');
    const response = await inject({
      method: 'POST',
      url: '/internal/v1/oauth/token-batch',
      headers: internal(),
      payload: {
        requests: [
          {
            form: 'grant_type=client_credentials',
            authorization: `Basic ${basic}`,
            request_id: 'admin-token',
          },
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    const [answer] = (
      response.json() as { answers: Array<{ status: number; body: { access_token: string } }> }
    ).answers;
    expect(answer.status).toBe(200);
    return answer.body.access_token;
  }

  /** The refusal as problem details, or in the SCIM error format on the SCIM routes (RFC 7644 section 3.12). */
  function expectProblem(entry: Operation, response: LightMyRequestResponse, status: number): void {
    expect({ status: response.statusCode, body: response.body }).toMatchObject({ status });
    if (SCIM_ENTRIES.includes(entry)) {
      expect(response.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(response.json()).toMatchObject({ status: String(status) });
    } else {
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.json()).toMatchObject({ status });
    }
  }

  /** The admin guard's refusal of a request without a Bearer token: 401, a bare challenge, the handler unreached. */
  function expectAdminRefusal(entry: Operation, response: LightMyRequestResponse): void {
    expectProblem(entry, response, 401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="oauth"');
    expect(handlers.reached).toEqual([]);
  }

  /** The internal guard's refusal: 401 problem details, the handler unreached. */
  function expectInternalRefusal(entry: Operation, response: LightMyRequestResponse): void {
    expectProblem(entry, response, 401);
    expect(response.json()).toMatchObject({ detail: 'A valid internal token is required' });
    expect(handlers.reached).toEqual([]);
  }

  const expectRefusal = (entry: Operation, response: LightMyRequestResponse) =>
    entry.caller.kind === 'admin'
      ? expectAdminRefusal(entry, response)
      : expectInternalRefusal(entry, response);

  it('finds the entries (the walk works)', () => {
    expect(guarded.length).toBeGreaterThan(50);
    expect(publicEntries.length).toBeGreaterThan(0);
    expect(withBody.length).toBeGreaterThan(10);
    expect(readingABody.length).toBeGreaterThan(10);
  });

  it('declares the body of every entry whose handler takes a @Body()', () => {
    expect(readingABody.filter((entry) => entry.body === undefined).map(({ id }) => id)).toEqual([]);
  });

  describe('guard applied: without a credential', () => {
    it.each(guarded.map(row))('refuses $name', async ({ entry }) => {
      expectRefusal(entry, await inject({ method: entry.method, url: urlOf(entry) }));
    });

    it.each(guarded.filter(({ live }) => live).map(row))('refuses the stream of $name', async ({ entry }) => {
      const response = await inject({
        method: entry.method,
        url: urlOf(entry),
        headers: { accept: 'text/event-stream' },
      });
      expectRefusal(entry, response);
    });

    it.each(publicEntries.map(row))('serves $name', async ({ entry }) => {
      const response = await inject({ method: entry.method, url: urlOf(entry) });
      expect([401, 403]).not.toContain(response.statusCode);
      expect(handlers.reached).toHaveLength(1);
    });
  });

  describe("the other kind's credential is refused", () => {
    it.each(guarded.map(row))('refuses $name', async ({ entry }) => {
      const headers = entry.caller.kind === 'admin' ? internal(GLOBAL_ADMIN) : admin();
      expectRefusal(entry, await inject({ method: entry.method, url: urlOf(entry), headers }));
    });
  });

  describe('malformed input refused, with the proper credential', () => {
    /** The SCIM handlers find the resource before they read the body: theirs is a real user. */
    let scimUser: string;
    beforeAll(async () => {
      const created = await inject({
        method: 'POST',
        url: urlOf(SCIM_OPERATIONS.create),
        headers: { ...internal(GLOBAL_ADMIN), 'content-type': 'application/scim+json' },
        payload: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'ada' },
      });
      expect(created.statusCode).toBe(SCIM_OPERATIONS.create.answer.status);
      scimUser = (created.json() as { id: string }).id;
    });

    const malformed = (entry: Operation, payload: string) =>
      inject({
        method: entry.method,
        url: urlOf(entry, SCIM_ENTRIES.includes(entry) ? { id: scimUser } : {}),
        headers: { ...credentialOf(entry), 'content-type': bodyType(entry) },
        payload,
      });

    it.each(withBody.map(row))(
      'refuses an array, a string and a number as the body of $name',
      async ({ entry }) => {
        for (const payload of ['[]', '[{}]', '"text"', '42']) {
          expectProblem(entry, await malformed(entry, payload), 400);
        }
      },
    );

    it.each(withBody.filter((entry) => requiredMembersOf(entry).length > 0).map(row))(
      'refuses a body of $name missing a required member',
      async ({ entry }) => {
        expectProblem(entry, await malformed(entry, '{}'), 400);
      },
    );

    it.each(withParams.map(row))(
      'refuses a path parameter over the length limit on $name',
      async ({ entry }) => {
        for (const name of paramsOf(entry)) {
          const response = await inject({
            method: entry.method,
            url: urlOf(entry, { [name]: OVERLONG_PARAM }),
            headers: credentialOf(entry),
          });
          expectProblem(entry, response, 414);
          expect(handlers.reached).toEqual([]);
        }
      },
    );
  });

  describe('status codes: representative operations answer their entry’s status', () => {
    /** Calls the entry as its caller kind (or for `principal`), a body of its DTO's examples; expects its status. */
    async function succeeds(entry: Operation, principal?: PrincipalClaims): Promise<LightMyRequestResponse> {
      const response = await inject({
        method: entry.method,
        url: urlOf(entry),
        headers: principal === undefined ? credentialOf(entry) : internal(principal),
        ...(entry.body !== undefined && { payload: exampleBodyOf(entry) }),
      });
      expect({ status: response.statusCode, body: response.body }).toMatchObject({
        status: entry.answer.status,
      });
      return response;
    }

    it('puts, gets and deletes the flag definitions of acme', async () => {
      await succeeds(FLAG_OPERATIONS.put);
      expect((await succeeds(FLAG_OPERATIONS.get)).json()).toMatchObject({ tenant: 'acme', version: 1 });
      await succeeds(FLAG_OPERATIONS.delete);
    });

    it('defines a scope and lists it', async () => {
      await succeeds(SCOPE_OPERATIONS.define);
      const listed = (await succeeds(SCOPE_OPERATIONS.list)).json() as Array<{ name: string }>;
      expect(listed.map(({ name }) => name)).toContain('reports.export');
    });

    it('writes and reads a secret of acme for its tenant admin', async () => {
      await succeeds(SECRET_OPERATIONS.put, ACME_TENANT_ADMIN);
      expect((await succeeds(SECRET_OPERATIONS.read, ACME_TENANT_ADMIN)).json()).toMatchObject({
        value: 's3cr3t',
      });
    });

    it('sets and reads the impersonation policy of acme for its tenant admin', async () => {
      await succeeds(IMPERSONATION_POLICY_OPERATIONS.put, ACME_TENANT_ADMIN);
      expect((await succeeds(IMPERSONATION_POLICY_OPERATIONS.get, ACME_TENANT_ADMIN)).json()).toEqual({
        tenant: 'acme',
        mode: 'read_only',
      });
    });

    it('creates an audit checkpoint and publishes it', async () => {
      await succeeds(ADMIN_AUDIT_OPERATIONS.checkpoint);
      await succeeds(AUDIT_CHECKPOINT_OPERATIONS.latest);
    });

    it.each([KEY_SET_OPERATIONS.jwks, ...Object.values(CONTROL_PLANE_PROBE_OPERATIONS)].map(row))(
      'serves $name',
      async ({ entry }) => {
        await succeeds(entry);
      },
    );
  });
});
