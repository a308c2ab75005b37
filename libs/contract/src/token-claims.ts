import { ApiProperty, ApiPropertyOptional, ApiSchema, type ApiPropertyOptions } from '@nestjs/swagger';
import type { ImpersonationClaim } from '@platform/domain';

/*
 * The claims of exchanged and impersonation access tokens (RFC 8693), as every answer that shows
 * a token's claims documents them (/v1/me, the login family's validation, introspection).
 */

@ApiSchema({
  name: 'TokenActor',
  description:
    'Who acts for the token’s subject (RFC 8693 section 4.1): the current actor, the earlier ones nested in `act`.',
})
export class TokenActorDto {
  @ApiProperty({ description: 'The actor’s user id, or its client_id for an app.' }) sub: string;
  @ApiPropertyOptional({ description: 'The app the actor acted through, when the token names it.' })
  client_id?: string;
  @ApiPropertyOptional({ type: () => TokenActorDto, description: 'The actor before this one.' })
  act?: TokenActorDto;
}

/** `act`: present on exchanged and impersonation tokens only. */
export const ActorProperty = (options: ApiPropertyOptions = {}) =>
  ApiPropertyOptional({
    type: () => TokenActorDto,
    description:
      'Exchanged and impersonation tokens only: who acts for `sub` (on an impersonation token, `act.sub` is the impersonator).',
    ...options,
  } as ApiPropertyOptions);

/** `impersonation`: present on impersonation tokens only. */
export const ImpersonationProperty = (options: ApiPropertyOptions = {}) =>
  ApiPropertyOptional({
    enum: ['full', 'read_only'] satisfies ImpersonationClaim[],
    description:
      'Impersonation tokens only (`sub` is the impersonated user): `read_only` is allowed `*.read` actions alone.',
    ...options,
  } as ApiPropertyOptions);
