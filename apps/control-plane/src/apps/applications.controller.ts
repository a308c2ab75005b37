import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import {
  APP_OPERATIONS,
  DEFAULT_PAGE_SIZE,
  ListApplicationsQueryDto,
  RegisterApplicationDto,
  type RotatedSecretDto,
  SERVICE_ACCOUNT_OPERATIONS,
  UpdateApplicationDto,
} from '@platform/contract';
import { ApplicationRegistry, type ApplicationKeysPatch } from '@platform/domain';
import type { FastifyReply } from 'fastify';
import { RevocationFeed } from '../platform/revocation-feed';
import { toApplicationResponse } from './dto';
import { Implements } from '../platform/implements';

@Controller()
export class ApplicationsController {
  constructor(
    private readonly registry: ApplicationRegistry,
    private readonly feed: RevocationFeed,
  ) {}

  @Implements(APP_OPERATIONS.register)
  async register(@Body() body: RegisterApplicationDto) {
    const { app, clientSecret } = await this.registry.register({
      clientId: body.client_id,
      name: body.name,
      appType: body.app_type,
      declaredScopes: body.declared_scopes,
      redirectUris: body.redirect_uris,
      tenant: body.tenant,
      resourceUri: body.resource_uri,
      exchangeAudiences: body.token_exchange_audiences,
      mayImpersonate: body.impersonation_allowed,
      postLogoutRedirectUris: body.post_logout_redirect_uris,
      backchannelLogoutUri: body.backchannel_logout_uri,
      dpopBoundAccessTokens: body.dpop_bound_access_tokens,
      tokenEndpointAuthMethod: body.token_endpoint_auth_method,
      jwks: body.jwks,
      jwksUri: body.jwks_uri,
    });
    return {
      ...toApplicationResponse(app),
      ...(clientSecret !== undefined && { client_secret: clientSecret }),
    };
  }

  /** A JSON array; an RFC 8288 `Link: <...>; rel="next"` header when there are more. */
  @Implements(APP_OPERATIONS.list)
  async list(@Query() query: ListApplicationsQueryDto, @Res({ passthrough: true }) reply: FastifyReply) {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const page = await this.registry.list({ after: query.after, limit });
    if (page.nextAfter !== null) {
      const next = new URLSearchParams({ limit: String(limit), after: page.nextAfter });
      void reply.header('Link', `</api/v1/apps?${next.toString()}>; rel="next"`);
    }
    return page.items.map(toApplicationResponse);
  }

  @Implements(APP_OPERATIONS.get)
  async get(@Param('id') clientId: string) {
    return toApplicationResponse(await this.registry.get(clientId));
  }

  @Implements(APP_OPERATIONS.update)
  async update(@Param('id') clientId: string, @Body() body: UpdateApplicationDto) {
    const app = await this.registry.updateExchange(clientId, {
      resourceUri: body.resource_uri,
      exchangeAudiences: body.token_exchange_audiences,
      mayImpersonate: body.impersonation_allowed,
      postLogoutRedirectUris: body.post_logout_redirect_uris,
      backchannelLogoutUri: body.backchannel_logout_uri,
      dpopBoundAccessTokens: body.dpop_bound_access_tokens,
      jwks: body.jwks as ApplicationKeysPatch['jwks'],
      jwksUri: body.jwks_uri,
    });
    return toApplicationResponse(app);
  }

  @Implements(APP_OPERATIONS.delete)
  async delete(@Param('id') clientId: string): Promise<void> {
    await this.registry.delete(clientId);
    this.feed.wake();
  }

  /** A new secret for the app, shown once (also a service account's `credentials/rotate`). */
  @Implements(APP_OPERATIONS.rotateSecret, SERVICE_ACCOUNT_OPERATIONS.rotate)
  async rotateSecret(@Param('id') clientId: string): Promise<RotatedSecretDto> {
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
