import { Controller, Delete, Get, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { AdminGuard } from '../auth/admin.guard';
import { LocalRevocation } from '../auth/local-revocation';
import type { UpstreamResponse } from '../clients/control-plane.client';
import { PLATFORM_CONFIG } from '../config';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';
import { publicAppsUrl, rewriteAppsLink } from './link-header';

/**
 * Application management (admin Bearer token). The registry lives in the control plane, which
 * checks the admin token again itself; the edge translates its addresses into the public ones.
 */
@Controller('v1/oauth/apps')
@UseGuards(AdminGuard)
export class AppsController {
  constructor(
    private readonly relay: ControlPlaneRelay,
    private readonly localRevocation: LocalRevocation,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  @Post()
  register(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/apps', body: 'json', then: this.publicAddresses });
  }

  @Get()
  list(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/api/v1/apps',
      query: ['limit', 'after'],
      then: this.publicAddresses,
    });
  }

  @Get(':id')
  get(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/apps/:id', then: this.publicAddresses });
  }

  /** The control plane revokes the app's tokens; this backend refuses them from the next request on. */
  @Delete(':id')
  delete(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/api/v1/apps/:id',
      then: async (response) => {
        if (response.status >= 200 && response.status < 300) await this.localRevocation.applyNow();
      },
    });
  }

  @Post(':id/rotate-secret')
  rotateSecret(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/apps/:id/rotate-secret' });
  }

  private readonly publicAddresses = (response: UpstreamResponse): void => {
    const { link, location } = response.headers;
    if (link !== undefined) response.headers.link = rewriteAppsLink(link, this.config.issuer);
    if (location === undefined) return;
    const rewritten = publicAppsUrl(location, this.config.issuer);
    if (rewritten === undefined) delete response.headers.location;
    else response.headers.location = rewritten;
  };
}
