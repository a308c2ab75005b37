import { compileErrors, validate } from '@readme/openapi-parser';
import { describeInBrowser, launchChromium } from '../../support/browser';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

interface Operation {
  parameters?: Array<{ in?: string; $ref?: string }>;
  responses: Record<string, unknown>;
}
type Document = {
  openapi: string;
  info: { version: string };
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
};

describe('GET /openapi.json and /docs', () => {
  let platform: TestPlatform;
  let document: Document;

  beforeAll(async () => {
    platform = sharedPlatform();
    const response = await fetch(`${platform.baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as Document;
  });

  it('serves a valid OpenAPI 3.1 document of this platform', async () => {
    const result = await validate(structuredClone(document) as never);
    if (!result.valid) throw new Error(compileErrors(result));
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([expect.objectContaining({ url: platform.baseUrl })]);
    const health = (await (await fetch(`${platform.baseUrl}/health`)).json()) as { version: string };
    expect(document.info.version).toBe(health.version);
  });

  it('is cacheable for five minutes', async () => {
    const response = await fetch(`${platform.baseUrl}/openapi.json`);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('answers each parameterless GET, without credentials, with a status it documents', async () => {
    const checked: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      const operation = item.get;
      if (operation === undefined || path.includes('{')) continue;
      const response = await fetch(`${platform.baseUrl}${path}`, { redirect: 'manual' });
      await response.arrayBuffer();
      expect({ path, status: response.status, documented: Object.keys(operation.responses) }).toEqual({
        path,
        status: response.status,
        documented: expect.arrayContaining([String(response.status)]),
      });
      checked.push(path);
    }
    expect(checked).toEqual(expect.arrayContaining(['/health', '/v1/jwks', '/v1/oauth/apps', '/docs']));
  });

  it('serves Swagger UI whose scripts and stylesheet all load from the backend', async () => {
    const page = await fetch(`${platform.baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await page.text();
    const scripts = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]);
    const stylesheets = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual(expect.arrayContaining(['/docs/swagger-ui-bundle.js', '/docs/init.js']));
    expect(stylesheets).toEqual(['/docs/swagger-ui.css']);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    for (const asset of [...scripts, ...stylesheets]) {
      const url = new URL(asset, `${platform.baseUrl}/docs`);
      expect(url.origin).toBe(new URL(platform.baseUrl).origin);
      const response = await fetch(url);
      expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
      const type = asset.endsWith('.css') ? /^text\/css/ : /^text\/javascript/;
      expect(response.headers.get('content-type')).toMatch(type);
    }
  });

  describeInBrowser('in a browser', () => {
    it('renders the document with no CSP violation and no request to another host', async () => {
      const browser = await launchChromium();
      try {
        // Swagger UI renders the operations near the viewport only, once the document is large: a
        // tall page shows them all.
        const page = await browser.newPage({ viewport: { width: 1280, height: 10_000 } });
        const origin = new URL(platform.baseUrl).origin;
        const foreign: string[] = [];
        await page.route('**/*', (route) => {
          if (new URL(route.request().url()).origin === origin) return route.continue();
          foreign.push(route.request().url());
          return route.abort();
        });
        const problems: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(message.text());
        });
        page.on('pageerror', (error) => problems.push(error.message));
        await page.goto(`${platform.baseUrl}/docs`);
        await page.locator('.swagger-ui .info .title').waitFor({ timeout: 15_000 });
        expect(await page.locator('.swagger-ui .info .title').innerText()).toContain('OAuth platform');
        expect(await page.locator('.opblock').count()).toBeGreaterThan(30);
        expect(problems.filter((text) => /Content Security Policy|Refused/i.test(text))).toEqual([]);
        expect(foreign).toEqual([]);
      } finally {
        await browser.close();
      }
    });
  });
});
