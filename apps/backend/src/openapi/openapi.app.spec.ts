import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoggerService } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DomainError } from '@platform/domain';
import { createHttpApp } from '@platform/http';
import { BackendModule } from '../backend.module';
import { ControlPlaneClient } from '../clients/control-plane.client';
import { SidecarClient } from '../clients/sidecar.client';
import { fakeControlPlane, fakeSidecar, testConfig, withProviders } from '../testing/fakes';
import type {
  OpenAPIObject,
  OperationObject,
  ResponseObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { compileErrors, validate } from '@readme/openapi-parser';
import { PLATFORM_VERSION } from '@platform/config';
import { controllersOf, declaredAuthority, publishOpenApi } from '@platform/http';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { AUTHORITY_EXTENSION, type RouteAuthority, routeHandlersOf } from '@platform/contract';
import { AdminGuard } from '../auth/admin.guard';
import { BearerGuard } from '../auth/bearer.guard';
import { OpenIdTokenGuard } from '../openid-connect/openid-token.guard';
import { PermissionGuard } from '../auth/permission';
import { openApiDocument } from './document';

/** The document as generated for the test configuration's issuer; `npm run openapi:generate` writes it. */
const COMMITTED_DOCUMENT = join(__dirname, '..', '..', '..', '..', 'open-api', 'openapi.json');

/** Where the committed document first differs from the generated one, and what to do. */
function staleness(committed: string, generated: string): string {
  const [was, is] = [committed.split('\n'), generated.split('\n')];
  const line = was.findIndex((text, index) => text !== is[index]);
  return (
    `open-api/openapi.json is stale (line ${line + 1}: committed ${JSON.stringify(was[line])}, ` +
    `generated ${JSON.stringify(is[line])}): run \`npm run openapi:generate\` and commit it`
  );
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** Swagger UI's static files: served, but not API operations. */
const DOCS_ASSETS = '/docs/:file';

/** `/v1/oauth/apps/:id` as OpenAPI writes it: `/v1/oauth/apps/{id}`. */
const openApiPath = (fastifyPath: string): string => fastifyPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('OpenAPI document and the routes the backend registers', () => {
  let app: NestFastifyApplication;
  const registered = new Set<string>();
  const config = testConfig();
  let document: OpenAPIObject;

  const operations = (): Array<[string, OperationObject]> =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      METHODS.flatMap((method) => {
        const operation = item[method];
        return operation === undefined
          ? []
          : [[`${method.toUpperCase()} ${path}`, operation] as [string, OperationObject]];
      }),
    );

  beforeAll(async () => {
    const logger: LoggerService = { log: jest.fn(), error: jest.fn(), warn: jest.fn() };
    // Nothing behind the backend answers: every forwarded call is the control plane being down.
    const controlPlane = fakeControlPlane();
    controlPlane.request.mockRejectedValue(
      new DomainError('unavailable', 'The control plane is unavailable'),
    );
    const module = withProviders(BackendModule.forRoot(config), [
      { provide: SidecarClient, useValue: fakeSidecar() },
      { provide: ControlPlaneClient, useValue: controlPlane },
    ]);
    app = await createHttpApp(module, { logger });
    // Nest adds its routes at init(): the hook sees every one of them.
    app
      .getHttpAdapter()
      .getInstance()
      .addHook('onRoute', (route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods) {
          // HEAD twins of GET routes are Fastify's (exposeHeadRoutes), not ours.
          if (method === 'HEAD' || route.url === DOCS_ASSETS) continue;
          registered.add(`${method} ${openApiPath(route.url)}`);
        }
      });
    document = publishOpenApi(app, openApiDocument(app, config.issuer));
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(async () => {
    await app.close();
  });

  const documented = (): Set<string> => new Set(operations().map(([name]) => name));

  it('registers routes at all (the hook works)', () => {
    expect(registered.size).toBeGreaterThan(10);
    expect(registered).toContain('POST /v1/oauth/token');
  });

  it('documents every route the backend registers', () => {
    const missing = [...registered].filter((route) => !documented().has(route)).sort();
    expect(missing).toEqual([]);
  });

  it('registers every route the document describes', () => {
    const absent = [...documented()].filter((route) => !registered.has(route)).sort();
    expect(absent).toEqual([]);
  });

  it('documents the status of every route called bare (no credential, no body)', async () => {
    const undocumented: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (operation === undefined) continue;
        const url = path.replace(/\{[^}]+\}/g, 'x');
        const response = await app.inject({ method: method.toUpperCase() as 'GET', url });
        if (!(String(response.statusCode) in operation.responses)) {
          undocumented.push(`${method.toUpperCase()} ${path}: ${response.statusCode}`);
        }
      }
    }
    expect(undocumented).toEqual([]);
  });

  it('applies the guard of what each route declares, and no other', () => {
    const guardsOf: Record<string, unknown[]> = {
      'admin.*': [AdminGuard],
      token: [BearerGuard],
      openid: [BearerGuard, OpenIdTokenGuard],
    };
    const wrong = controllersOf(BackendModule.forRoot(config)).flatMap((controller) =>
      routeHandlersOf(controller).flatMap(([name, handler]) => {
        const { permission } = declaredAuthority(controller, handler)!;
        const guards = [
          ...((Reflect.getMetadata(GUARDS_METADATA, controller) as unknown[] | undefined) ?? []),
          ...((Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[] | undefined) ?? []),
        ];
        const expected =
          /^[a-z]+\.[a-z*]+$/.test(permission) && permission !== 'admin.*'
            ? [PermissionGuard]
            : (guardsOf[permission] ?? []);
        return guards.length === expected.length && guards.every((guard, i) => guard === expected[i])
          ? []
          : [`${controller.name}.${name} (${permission})`];
      }),
    );
    expect(wrong).toEqual([]);
  });

  describe('the generated document', () => {
    it('is a valid OpenAPI 3.1 document', async () => {
      // validate() dereferences in place: give it a copy, as a client would parse it from JSON.
      const result = await validate(JSON.parse(JSON.stringify(document)));
      if (!result.valid) throw new Error(compileErrors(result));
      expect(result.specification).toBe('OpenAPI');
      expect(result.warnings).toEqual([]);
    });

    it('names the platform version and the configured issuer', () => {
      expect(document.openapi).toBe('3.1.0');
      expect(document.info.version).toBe(PLATFORM_VERSION);
      expect(document.servers).toEqual([{ url: config.issuer, description: expect.any(String) }]);
    });

    it('serializes to JSON without losing anything', () => {
      expect(JSON.parse(JSON.stringify(document))).toEqual(document);
    });

    it('is the committed open-api/openapi.json, so a change to the API shows in review', () => {
      const generated = `${JSON.stringify(document, null, 2)}\n`;
      if (process.env.UPDATE_OPENAPI === '1') writeFileSync(COMMITTED_DOCUMENT, generated);
      const committed = readFileSync(COMMITTED_DOCUMENT, 'utf8');
      expect(committed === generated ? 'current' : staleness(committed, generated)).toBe('current');
    });

    it('gives every operation an error answer and a declared security requirement', () => {
      for (const [name, operation] of operations()) {
        expect({ name, security: operation.security }).toEqual({ name, security: expect.any(Array) });
        const statuses = Object.keys(operation.responses);
        expect({ name, statuses }).toEqual({
          name,
          statuses: expect.arrayContaining([expect.stringMatching(/^[23]/)]),
        });
      }
    });

    it('documents RFC 6749 errors on the OAuth endpoints and RFC 6750 challenges on Bearer routes', () => {
      const token = document.paths['/v1/oauth/token'].post!;
      const invalidClient = token.responses['401'] as ResponseObject;
      expect(invalidClient.content?.['application/json'].schema).toEqual({
        $ref: '#/components/schemas/OAuthError',
      });
      expect(invalidClient.headers?.['WWW-Authenticate']).toBeDefined();
      const tokenErrors = token.responses['400'] as ResponseObject;
      expect(tokenErrors.content?.['application/json'].schema).toEqual({
        $ref: '#/components/schemas/OAuthError',
      });
      expect(Object.keys(tokenErrors.content?.['application/json'].examples ?? {})).toEqual(
        expect.arrayContaining(['invalidScope', 'invalidGrantVerifier', 'unsupportedGrantType']),
      );
      const me = document.paths['/v1/me'].get!;
      expect((me.responses['401'] as ResponseObject).headers?.['WWW-Authenticate']).toBeDefined();
      const register = document.paths['/v1/oauth/apps'].post!;
      expect(
        (register.responses['403'] as ResponseObject).content?.['application/problem+json'].schema,
      ).toEqual({
        $ref: '#/components/schemas/BearerProblem',
      });
      expect(register.security).toEqual([{ bearerAuth: [] }]);
    });

    it('takes its schemas from the shared contract, named as the wire calls them', () => {
      const schemas = document.components?.schemas ?? {};
      for (const name of [
        'OAuthError',
        'Problem',
        'TokenResponse',
        'Application',
        'ApplicationRegistration',
        'TokenEventPage',
        'User',
      ]) {
        expect(schemas).toHaveProperty(name);
      }
      // Patterns come from the domain's rules, not from a copy.
      expect(JSON.stringify(schemas.ApplicationRegistration)).toContain('pattern');
    });

    it('records each decision the specification leaves "not shown"', () => {
      const description = document.info.description ?? '';
      for (const topic of [
        'Item shape of the app listing',
        'Scope definition',
        'Token event stream',
        'Login family bodies',
        'Service accounts',
        'Status codes per condition',
        'How an admin token is obtained',
      ]) {
        expect(description).toContain(topic);
      }
      const described = (path: string, method: 'get' | 'post'): string =>
        document.paths[path][method]?.description ?? '';
      expect(described('/v1/oauth/apps', 'get')).toContain('not shown');
      expect(described('/api/v1/scopes', 'post')).toContain('not shown');
      expect(described('/api/v1/token-events', 'get')).toContain('not shown');
      expect(described('/api/v1/auth/refresh', 'post')).toContain('not shown');
      expect(described('/api/v1/auth/validate', 'post')).toContain('not shown');
      expect(described('/api/v1/apps/register', 'post')).toContain('decided');
      expect(described('/api/v1/apps/{app_id}/credentials/rotate', 'post')).toContain('not shown');
    });

    it('declares who may call every operation and where its tenant comes from (x-authority)', () => {
      const undeclared = operations()
        .filter(([, operation]) => !isAuthority(declaredOn(operation)))
        .map(([name]) => name);
      expect(undeclared).toEqual([]);
    });

    it('takes a tenant from a path parameter only where the path has it', () => {
      const misplaced = operations()
        .map(([name, operation]) => [name, authorityOf(operation).tenant] as const)
        .filter(([name, tenant]) => tenant.startsWith('path:') && !name.includes(`{${tenant.slice(5)}}`));
      expect(misplaced).toEqual([]);
    });

    it('documents the credential each operation declares', () => {
      const scheme: Record<string, string[]> = {
        none: [],
        session: ['sessionCookie'],
        client: ['clientSecretBasic'],
      };
      const mismatched = operations()
        .map(([name, operation]) => {
          const { permission } = authorityOf(operation);
          const documented = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
          return { name, permission, documented, expected: scheme[permission] ?? ['bearerAuth'] };
        })
        .filter(({ documented, expected }) => JSON.stringify(documented) !== JSON.stringify(expected));
      expect(mismatched).toEqual([]);
    });

    it('declares each security scheme it uses', () => {
      const used = new Set(
        operations().flatMap(([, op]) => (op.security ?? []).flatMap((r) => Object.keys(r))),
      );
      expect([...used].sort()).toEqual(Object.keys(document.components?.securitySchemes ?? {}).sort());
    });

    it('has no response without a description', () => {
      for (const [name, operation] of operations()) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const ok = (response as ResponseObject).description !== '';
          expect({ name, status, ok }).toEqual({ name, status, ok: true });
        }
      }
    });
  });

  describe('GET /openapi.json', () => {
    it('serves the document for the configured issuer, cacheable for 5 minutes', async () => {
      const response = await app.inject({ method: 'GET', url: '/openapi.json' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['cache-control']).toBe('public, max-age=300');
      expect(response.json()).toEqual(JSON.parse(JSON.stringify(document)));
      expect(response.json()).toMatchObject({ openapi: '3.1.0', servers: [{ url: config.issuer }] });
    });
  });

  describe('GET /docs', () => {
    it('serves a page whose only scripts are files of this server, under a CSP of self', async () => {
      const response = await app.inject({ method: 'GET', url: '/docs' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
      expect(csp).not.toMatch(/script-src|style-src|connect-src/);
      const scripts = [...response.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.map((match) => match[1].trim())).toEqual([
        'src="/docs/swagger-ui-bundle.js"',
        'src="/docs/init.js"',
      ]);
      expect(scripts.every((match) => match[2].trim() === '')).toBe(true);
      expect(response.body).toContain('href="/docs/swagger-ui.css"');
    });

    it.each([
      ['/docs/swagger-ui.css', 'text/css'],
      ['/docs/swagger-ui-bundle.js', 'text/javascript'],
      ['/docs/init.js', 'text/javascript'],
      ['/docs/favicon-32x32.png', 'image/png'],
    ])('serves %s', async (url, type) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain(type);
      expect(response.rawPayload.length).toBeGreaterThan(0);
    });

    it('points Swagger UI at /openapi.json without reaching any other host', async () => {
      const response = await app.inject({ method: 'GET', url: '/docs/init.js' });
      expect(response.body).toContain("url: '/openapi.json'");
      expect(response.body).toContain('validatorUrl: null');
      expect(response.body).not.toMatch(/https?:\/\//);
    });

    it.each(['/docs/index.html', '/docs/package.json', '/docs/..%2Fpackage.json', '/docs/swagger-ui.js.map'])(
      'answers 404 problem+json for %s, which is not one of its assets',
      async (url) => {
        const response = await app.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(404);
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      },
    );
  });
});

function isAuthority(value: unknown): value is RouteAuthority {
  const authority = value as Partial<RouteAuthority> | undefined;
  return typeof authority?.permission === 'string' && typeof authority.tenant === 'string';
}

/** The operation's `x-authority` member, whatever it holds. */
const declaredOn = (operation: OperationObject): unknown =>
  (operation as unknown as Record<string, unknown>)[AUTHORITY_EXTENSION];

function authorityOf(operation: OperationObject): RouteAuthority {
  const authority = declaredOn(operation);
  if (!isAuthority(authority)) throw new Error(`no ${AUTHORITY_EXTENSION} on ${operation.operationId}`);
  return authority;
}
