import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { UnixSecondsProperty } from './fields';
import { operation } from './operation-table';

/** OpenID Connect Core section 5.3.2: the claims of the token's user its scopes allow. */
@ApiSchema({
  name: 'UserInfo',
  description:
    '`sub` always; `profile` adds `name`, `preferred_username` and `updated_at`, `email` adds `email`. A claim the user record lacks is left out (docs/openid-connect.md).',
})
export class UserInfoDto {
  @ApiProperty({ description: 'The user id: the `sub` of the ID token and the access token.' })
  sub: string;
  @ApiPropertyOptional() name?: string;
  @ApiPropertyOptional({ description: 'The SCIM userName, else the email.' }) preferred_username?: string;
  @UnixSecondsProperty({ required: false }) updated_at?: number;
  @ApiPropertyOptional() email?: string;
}

/** Whose claims, for which scopes: what the backend learnt from the validated access token. */
export class UserInfoRequestDto {
  @IsString()
  @MaxLength(256)
  user_id: string;

  @IsString()
  @MaxLength(4096)
  scope: string;
}

/** The UserInfo endpoint's claims, read from the user record (the backend validated the token). */
export const INTERNAL_USERINFO_OPERATIONS = {
  claims: operation({
    id: 'userInfoClaims',
    tag: 'Internal',
    summary: 'The UserInfo claims of a user for the scopes of a token',
    method: 'POST',
    path: 'internal/v1/userinfo',
    caller: { kind: 'internal' },
    body: { type: 'json', model: UserInfoRequestDto },
    answer: { status: 200, model: UserInfoDto, description: 'The claims.' },
    refuses: { 401: 'The user no longer exists or is deactivated.' },
  }),
};
