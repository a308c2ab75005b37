import { Controller, Get, Inject, NotFoundException, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DOCS_CSP, DOCS_PAGE, SwaggerUiAssets } from './swagger-ui';

/** Injection token of the serialized OpenAPI document (built once at boot). */
export const OPENAPI_JSON = Symbol('OPENAPI_JSON');

const DOCS_HEADERS = {
  'content-security-policy': DOCS_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** `GET /openapi.json` and the Swagger UI at `/docs`, all served from this process. */
@Controller()
export class OpenApiController {
  constructor(
    @Inject(OPENAPI_JSON) private readonly document: string,
    private readonly assets: SwaggerUiAssets,
  ) {}

  @Get('openapi.json')
  async openApi(@Res() reply: FastifyReply): Promise<void> {
    void reply.headers({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'public, max-age=300',
    });
    await reply.send(this.document);
  }

  @Get('docs')
  async docs(@Res() reply: FastifyReply): Promise<void> {
    void reply.headers({
      ...DOCS_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'public, max-age=300',
    });
    await reply.send(DOCS_PAGE);
  }

  @Get('docs/:file')
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
