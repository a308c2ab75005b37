import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { PublishedOpenApi } from './published-openapi';
import { DOCS_CSP, DOCS_PAGE, SwaggerUiAssets } from './swagger-ui';
import { DeclaresAuthority, NO_CREDENTIAL, PublicOperation } from '@platform/contract';

const DOCS_HEADERS = {
  'content-security-policy': DOCS_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** `GET /openapi.json` and the Swagger UI at `/docs`, all served from this process (no CDN). */
@Controller()
export class ApiDocsController {
  constructor(
    private readonly document: PublishedOpenApi,
    private readonly assets: SwaggerUiAssets,
  ) {}

  @Get('openapi.json')
  @PublicOperation({
    id: 'getOpenApiDocument',
    tag: 'Platform',
    summary: 'This document',
    description:
      'The OpenAPI 3.1 document of this service. No credential; `Cache-Control: public, max-age=300`.',
  })
  @ApiResponse({
    status: 200,
    description: 'The document.',
    content: { 'application/json': { schema: { type: 'object' } } },
  })
  async openApi(@Res() reply: FastifyReply): Promise<void> {
    void reply.headers({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'public, max-age=300',
    });
    await reply.send(this.document.json);
  }

  @Get('docs')
  @PublicOperation({
    id: 'getApiDocs',
    tag: 'Platform',
    summary: 'Browsable API documentation',
    description:
      "Swagger UI over `/openapi.json`, served entirely by this service (its assets under `/docs/`, no inline script, `Content-Security-Policy` allowing only 'self', plus `data:` images for the stylesheet's icons). No credential.",
  })
  @ApiProduces('text/html')
  @ApiResponse({
    status: 200,
    description: 'The HTML page.',
    content: { 'text/html': { schema: { type: 'string' } } },
  })
  async docs(@Res() reply: FastifyReply): Promise<void> {
    void reply.headers({
      ...DOCS_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'public, max-age=300',
    });
    await reply.send(DOCS_PAGE);
  }

  /** Swagger UI's static files: served, but not API operations. */
  @Get('docs/:file')
  @ApiExcludeEndpoint()
  @DeclaresAuthority(NO_CREDENTIAL)
  async asset(@Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const asset = this.assets.get(file);
    if (asset === undefined) throw new NotFoundException(`No documentation asset named ${file}`);
    void reply.headers({
      ...DOCS_HEADERS,
      'content-type': asset.contentType,
      'cache-control': 'public, max-age=3600',
    });
    await reply.send(asset.body);
  }
}
