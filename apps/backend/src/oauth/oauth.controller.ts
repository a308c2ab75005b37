import { Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type Caller, CurrentCaller, FormBody } from '../http/caller';
import { relay } from '../http/relay';
import { OAuthService } from './oauth.service';

/** RFC 6749 token, RFC 7662 introspection, RFC 7009 revocation, and the key set. */
@Controller('v1')
export class OAuthController {
  constructor(private readonly oauth: OAuthService) {}

  @Post('oauth/token')
  @HttpCode(200)
  async token(
    @FormBody() form: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await relay(reply, await this.oauth.forward('token', form, caller));
  }

  @Post('oauth/introspect')
  @HttpCode(200)
  async introspect(
    @FormBody() form: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await relay(reply, await this.oauth.forward('introspect', form, caller));
  }

  @Post('oauth/revoke')
  @HttpCode(200)
  async revoke(
    @FormBody() form: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await relay(reply, await this.oauth.forward('revoke', form, caller));
  }

  @Get('jwks')
  async jwks(@CurrentCaller() caller: Caller, @Res() reply: FastifyReply): Promise<void> {
    await relay(reply, await this.oauth.jwks(caller));
  }
}
