import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { LocalRevocation } from '../auth/local-revocation';
import type { UpstreamResponse } from '../clients/control-plane.client';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

const JWKS_CACHE_CONTROL = 'public, max-age=60';

/**
 * RFC 6749 token, RFC 7662 introspection, RFC 7009 revocation, and the key set. The control
 * plane verifies clients and signs; the edge passes the form and Authorization header on.
 */
@Controller('v1')
export class OAuthController {
  constructor(
    private readonly relay: ControlPlaneRelay,
    private readonly localRevocation: LocalRevocation,
  ) {}

  @Post('oauth/token')
  token(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/internal/v1/oauth/token', body: 'form', then: noStore });
  }

  @Post('oauth/introspect')
  introspect(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/internal/v1/oauth/introspect',
      body: 'form',
      then: noStore,
    });
  }

  @Post('oauth/revoke')
  revoke(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/internal/v1/oauth/revoke',
      body: 'form',
      then: async (response) => {
        noStore(response);
        // Persisted: this backend refuses the token (and what else it revoked) from the next request on.
        if (response.status !== 200) return;
        await this.localRevocation.applyNow(new URLSearchParams(request.rawBody).get('token') ?? undefined);
      },
    });
  }

  @Get('jwks')
  jwks(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/api/v1/jwks',
      forwardAuthorization: false,
      then: (response) => {
        if (response.status === 200) response.headers['cache-control'] = JWKS_CACHE_CONTROL;
      },
    });
  }
}

/** OAuth answers carry `Cache-Control: no-store` (RFC 6749 section 5.1) when the control plane set none. */
export function noStore(response: UpstreamResponse): void {
  response.headers['cache-control'] ??= 'no-store';
}
