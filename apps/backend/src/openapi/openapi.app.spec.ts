import type { LoggerService } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DomainError } from '@platform/domain';
import { createHttpApp } from '@platform/http';
import { BackendModule } from '../backend.module';
import { ControlPlaneClient } from '../clients/control-plane.client';
import { SidecarClient } from '../clients/sidecar.client';
import { fakeControlPlane, fakeSidecar, testConfig, withProviders } from '../testing/fakes';
import { openApiDocument } from './document';
import type { HttpMethod } from './openapi-types';

const METHODS: HttpMethod[] = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** Swagger UI's static files: served, but not API operations. */
const DOCS_ASSETS = '/docs/:file';

/** `/v1/oauth/apps/:id` as OpenAPI writes it: `/v1/oauth/apps/{id}`. */
const openApiPath = (fastifyPath: string): string => fastifyPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('OpenAPI document and the routes the backend registers', () => {
  let app: NestFastifyApplication;
  const registered = new Set<string>();
  const config = testConfig();

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
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(async () => {
    await app.close();
  });

  const documented = (): Set<string> => {
    const { paths } = openApiDocument({ issuer: config.issuer });
    return new Set(
      Object.entries(paths).flatMap(([path, item]) =>
        METHODS.filter((method) => item[method] !== undefined).map(
          (method) => `${method.toUpperCase()} ${path}`,
        ),
      ),
    );
  };

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
    const { paths } = openApiDocument({ issuer: config.issuer });
    const undocumented: string[] = [];
    for (const [path, item] of Object.entries(paths)) {
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

  describe('GET /openapi.json', () => {
    it('serves the document for the configured issuer, cacheable for 5 minutes', async () => {
      const response = await app.inject({ method: 'GET', url: '/openapi.json' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['cache-control']).toBe('public, max-age=300');
      expect(response.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument({ issuer: config.issuer }))));
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
