import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { DEFAULT_PAGE_SIZE, ListApplicationsQueryDto, RegisterApplicationDto } from '@platform/contract';
import { ApplicationRegistry } from '@platform/domain';
import type { FastifyReply } from 'fastify';
import { RevocationFeed } from '../platform/revocation-feed';
import { toApplicationResponse } from './dto';
import { AdminRoute } from '../platform/route-authority';

@Controller('api/v1/apps')
@AdminRoute()
export class ApplicationsController {
  constructor(
    private readonly registry: ApplicationRegistry,
    private readonly feed: RevocationFeed,
  ) {}

  @Post()
  async register(@Body() body: RegisterApplicationDto) {
    const { app, clientSecret } = await this.registry.register({
      clientId: body.client_id,
      name: body.name,
      appType: body.app_type,
      declaredScopes: body.declared_scopes,
      redirectUris: body.redirect_uris,
      tenant: body.tenant,
    });
    return {
      ...toApplicationResponse(app),
      ...(clientSecret !== undefined && { client_secret: clientSecret }),
    };
  }

  /** A JSON array; an RFC 8288 `Link: <...>; rel="next"` header when there are more. */
  @Get()
  async list(@Query() query: ListApplicationsQueryDto, @Res({ passthrough: true }) reply: FastifyReply) {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const page = await this.registry.list({ after: query.after, limit });
    if (page.nextAfter !== null) {
      const next = new URLSearchParams({ limit: String(limit), after: page.nextAfter });
      void reply.header('Link', `</api/v1/apps?${next.toString()}>; rel="next"`);
    }
    return page.items.map(toApplicationResponse);
  }

  @Get(':id')
  async get(@Param('id') clientId: string) {
    return toApplicationResponse(await this.registry.get(clientId));
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@Param('id') clientId: string): Promise<void> {
    await this.registry.delete(clientId);
    this.feed.wake();
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  async rotateSecret(@Param('id') clientId: string) {
    const rotated = await this.registry.rotateSecret(clientId);
    // Its `secret` entry tells every backend to forget what it remembered of the old secret.
    this.feed.wake();
    return {
      client_id: rotated.clientId,
      client_secret: rotated.clientSecret,
      rotated_at: rotated.rotatedAt.toISOString(),
    };
  }
}
