import { Controller, Get, Header, HttpCode, Post } from '@nestjs/common';
import { Answers, BearerOperation, UserInfoDto } from '@platform/contract';
import type { TokenClaims } from '@platform/grpc';
import { Claims } from '../auth/bearer.guard';
import { RequireOpenIdToken } from './openid-token.guard';
import { UserInfoClient } from '../clients/userinfo.client';

const DESCRIPTION = [
  'OpenID Connect Core section 5.3: the claims of the access token’s user its scopes allow, as the user record holds them now (docs/openid-connect.md). The token goes in the `Authorization: Bearer` header.',
  '- No token, or an invalid, expired or revoked one, or a user deactivated since: **401** `invalid_token` (`WWW-Authenticate`).',
  '- A token without the `openid` scope (a service token, an app token without it): **403** `insufficient_scope`.',
].join('\n');

/** The UserInfo endpoint, GET and POST (Core section 5.3.1). */
@Controller('v1/oauth/userinfo')
export class UserInfoController {
  constructor(private readonly userInfo: UserInfoClient) {}

  @Get()
  @RequireOpenIdToken()
  @BearerOperation({ id: 'getUserInfo', tag: 'OAuth', summary: 'UserInfo (GET)', description: DESCRIPTION })
  @Answers(200, UserInfoDto, 'The claims.')
  @Header('Cache-Control', 'no-store')
  read(@Claims() claims: TokenClaims): Promise<UserInfoDto> {
    return this.userInfo.claims(claims.sub, claims.scope);
  }

  @Post()
  @HttpCode(200)
  @RequireOpenIdToken()
  @BearerOperation({ id: 'postUserInfo', tag: 'OAuth', summary: 'UserInfo (POST)', description: DESCRIPTION })
  @Answers(200, UserInfoDto, 'The claims.')
  @Header('Cache-Control', 'no-store')
  readByPost(@Claims() claims: TokenClaims): Promise<UserInfoDto> {
    return this.userInfo.claims(claims.sub, claims.scope);
  }
}
