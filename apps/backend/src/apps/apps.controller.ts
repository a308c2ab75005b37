import { Controller, Delete, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { PlatformConfig } from '@platform/config';
import {
  AdminOperation,
  Answers,
  ApplicationDto,
  JsonBody,
  ListApplicationsQueryDto,
  Refuses,
  RegisterApplicationDto,
  RegisteredApplicationDto,
  RotatedSecretDto,
} from '@platform/contract';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { RequireAdmin } from '../auth/admin.guard';
import { LocalRevocation } from '../auth/local-revocation';
import type { UpstreamResponse } from '../clients/control-plane.client';
import { PLATFORM_CONFIG } from '../config';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';
import { publicAppsUrl, rewriteAppsLink } from './link-header';

const NO_APP = 'No application with this id.';
const AppId = () => ApiParam({ name: 'id', required: true, description: 'The application’s `client_id`.' });

/**
 * Application management (admin Bearer token). The registry lives in the control plane, which
 * checks the admin token again itself; the edge translates its addresses into the public ones.
 */
@Controller('v1/oauth/apps')
@RequireAdmin()
export class AppsController {
  constructor(
    private readonly relay: ControlPlaneRelay,
    private readonly localRevocation: LocalRevocation,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  @Post()
  @AdminOperation({
    id: 'registerApp',
    tag: 'Registry',
    summary: 'Register an application',
    description:
      'Registers an OAuth client. The body is the specification’s fields plus optional `redirect_uris` (required for `web`, `spa` and `cli`). The answer is the application record with `client_secret`, shown this once (no secret for `spa`). Duplicate `client_id`: **409**; a rule broken (client_id syntax, name length, no or undefined declared scope, app type, redirect URIs): **400**. Missing admin token: **401**; a token without `admin.*` or `global_admin`: **403**.',
  })
  @JsonBody(RegisterApplicationDto)
  @Answers(201, RegisteredApplicationDto, 'Registered.')
  @Refuses(409, 'The `client_id` is taken.')
  register(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/api/v1/apps',
      body: 'json',
      then: this.publicAddresses,
    });
  }

  @Get()
  @AdminOperation({
    id: 'listApps',
    tag: 'Registry',
    summary: 'List applications',
    description:
      'A JSON array of applications ordered by `client_id` (the item shape, "not shown" in the specification, is `Application`: never a secret or its hash), at most `limit` items, with an RFC 8288 `Link: <...>; rel="next"` header while more remain (follow it as is).',
  })
  @ApiQuery({ type: ListApplicationsQueryDto })
  @Answers(200, [ApplicationDto], 'One page of applications.', {
    headers: {
      Link: { description: 'RFC 8288 `rel="next"` while more items remain.', schema: { type: 'string' } },
    },
  })
  list(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/api/v1/apps',
      query: ['limit', 'after'],
      then: this.publicAddresses,
    });
  }

  @Get(':id')
  @AdminOperation({ id: 'getApp', tag: 'Registry', summary: 'One application' })
  @Answers(200, ApplicationDto, 'The application.')
  @Refuses(404, NO_APP)
  @AppId()
  get(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/apps/:id', then: this.publicAddresses });
  }

  /** The control plane revokes the app's tokens; this backend refuses them from the next request on. */
  @Delete(':id')
  @AdminOperation({
    id: 'deleteApp',
    tag: 'Registry',
    summary: 'Delete an application',
    description:
      'Deletes the application; every active token of it is refused from this moment (this backend’s sidecar knows before the answer) and its refresh tokens are revoked. An application has two lifecycle states (the specification leaves them "not shown"): registered, then deleted; there is no suspended state. The bootstrap admin app cannot be deleted (**409**), since it is how operators get back in.',
  })
  @ApiResponse({ status: 204, description: 'Deleted; no body.' })
  @Refuses(404, NO_APP)
  @Refuses(409, 'The bootstrap admin application.')
  @AppId()
  delete(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/api/v1/apps/:id',
      then: async (response) => {
        if (response.status >= 200 && response.status < 300) await this.localRevocation.applyNow();
      },
    });
  }

  @Post(':id/rotate-secret')
  @AdminOperation({
    id: 'rotateAppSecret',
    tag: 'Registry',
    summary: 'Rotate an application’s secret',
    description:
      'A new secret, shown once; the old one stops working at once (at every backend within a second: a backend that answers introspection itself forgets the old secret when its sidecar streams the rotation, this one before the answer). Deploy the new secret before relying on it. No body. A `spa` app has no secret: **409**.',
  })
  @Answers(200, RotatedSecretDto, 'The new secret.')
  @Refuses(404, NO_APP)
  @Refuses(409, 'A `spa` app.')
  @AppId()
  rotateSecret(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/api/v1/apps/:id/rotate-secret',
      then: async (response) => {
        if (response.status === 200) await this.localRevocation.applyNow();
      },
    });
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
