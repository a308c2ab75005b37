import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The directory of the installed `swagger-ui-dist` (its small path helper, not the 1.7 MB bundle). */
function swaggerUiDirectory(): string {
  const getAbsoluteFSPath = require('swagger-ui-dist/absolute-path.js') as () => string;
  return getAbsoluteFSPath();
}

export interface DocsAsset {
  contentType: string;
  body: Buffer | string;
}

/** Our own initializer: a file, not an inline script, so the page's CSP can forbid inline code. */
const INIT_SCRIPT = `'use strict';
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

/** Files of swagger-ui-dist the page uses, by the name they are served under `/docs/`. */
const DIST_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

/** `/docs`: every reference is a file of this server; no inline script or style. */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>OAuth platform API</title>
    <link rel="stylesheet" href="/docs/swagger-ui.css" />
    <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32" />
    <link rel="icon" type="image/png" href="/docs/favicon-16x16.png" sizes="16x16" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

/**
 * Only 'self': the page, its scripts, stylesheet and the document all come from this server, and
 * nothing else may be loaded, framed or posted to. The one addition is `data:` images: the icons
 * of swagger-ui.css are inline SVG data URLs (an image cannot run script), and without them the
 * expand arrows and copy buttons disappear.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "img-src 'self' data:",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
  "object-src 'none'",
].join('; ');

/**
 * The static files of `/docs/`, read from disk at their first request and kept in memory
 * (the platform never reaches the network for them). Unknown names: undefined.
 */
export class SwaggerUiAssets {
  private readonly cache = new Map<string, DocsAsset>();

  constructor(private readonly directory: () => string = swaggerUiDirectory) {}

  get(name: string): DocsAsset | undefined {
    if (name === 'init.js') return { contentType: 'text/javascript; charset=utf-8', body: INIT_SCRIPT };
    const contentType = Object.hasOwn(DIST_FILES, name) ? DIST_FILES[name] : undefined;
    if (contentType === undefined) return undefined;
    let asset = this.cache.get(name);
    if (asset === undefined) {
      asset = { contentType, body: readFileSync(join(this.directory(), name)) };
      this.cache.set(name, asset);
    }
    return asset;
  }
}
