import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  DefineScopeDto,
  ListApplicationsQueryDto,
  ListTokenEventsQueryDto,
  RegisterApplicationDto,
  RegisterServiceAccountDto,
} from '@platform/contract';
import { ApplicationRegistry, ScopeRegistry, SigningKeyRing, type Stores } from '@platform/domain';
import type { FastifyReply } from 'fastify';
import { RevocationFeed } from '../platform/revocation-feed';
import { STORES } from '../platform/tokens';
import { toApplicationResponse } from './dto';
import { AdminGuard } from './admin.guard';

const DEFAULT_PAGE_SIZE = 100;

@Controller('api/v1/apps')
@UseGuards(AdminGuard)
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
    return {
      client_id: rotated.clientId,
      client_secret: rotated.clientSecret,
      rotated_at: rotated.rotatedAt.toISOString(),
    };
  }
}

/** Service accounts (`POST /api/v1/apps/register`): a `service` app under a generated client_id. */
@Controller('api/v1/apps')
@UseGuards(AdminGuard)
export class ServiceAccountsController {
  constructor(private readonly registry: ApplicationRegistry) {}

  @Post('register')
  async register(@Body() body: RegisterServiceAccountDto) {
    const { app, clientSecret } = await this.registry.registerServiceAccount({
      name: body.name,
      declaredScopes: body.declared_scopes,
    });
    return {
      client_id: app.clientId,
      client_secret: clientSecret,
      name: app.name,
      declared_scopes: app.declaredScopes,
      app_type: app.appType,
      created_at: app.createdAt.toISOString(),
    };
  }
}

@Controller('api/v1/scopes')
@UseGuards(AdminGuard)
export class ScopesController {
  constructor(private readonly scopes: ScopeRegistry) {}

  @Post()
  async define(@Body() body: DefineScopeDto) {
    const scope = await this.scopes.define(body.name, body.description);
    return { name: scope.name, description: scope.description, created_at: scope.createdAt?.toISOString() };
  }

  @Get()
  async list() {
    return (await this.scopes.list()).map((s) => ({
      name: s.name,
      description: s.description,
      standard: s.standard,
      created_at: s.createdAt?.toISOString() ?? null,
    }));
  }
}

@Controller('api/v1/token-events')
@UseGuards(AdminGuard)
export class TokenEventsController {
  constructor(@Inject(STORES) private readonly stores: Stores) {}

  /** Cursor-paged: pass `next_after` back as `after` to follow the stream. */
  @Get()
  async list(@Query() query: ListTokenEventsQueryDto) {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const events = await this.stores.tokenEvents.listTokenEvents({
      after: query.after,
      limit,
      clientId: query.client_id,
    });
    return {
      events: events.map((e) => ({
        id: e.id,
        type: e.type,
        client_id: e.clientId,
        subject: e.subject,
        jti: e.jti,
        grant_id: e.grantId,
        occurred_at: e.occurredAt.toISOString(),
      })),
      next_after: events.length > 0 ? events[events.length - 1].id : (query.after ?? 0),
    };
  }
}

@Controller('api/v1/keys')
@UseGuards(AdminGuard)
export class SigningKeysController {
  constructor(private readonly keys: SigningKeyRing) {}

  /** The new key signs from now on; the old one stays published until its tokens expire. */
  @Post('rotate')
  async rotate() {
    const { kid, createdAt } = await this.keys.rotate();
    return { kid, created_at: createdAt.toISOString() };
  }
}
