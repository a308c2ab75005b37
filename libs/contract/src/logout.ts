import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { operation } from './operation-table';

/** OpenID Connect logout: the end-session endpoint's parameters and the control plane's check of them. */

const HINT_MAX = 16_384;
const PARAMETER_MAX = 2_000;

/**
 * The parameters of `/oauth/logout` (OpenID Connect RP-Initiated Logout 1.0 section 2), as a
 * query (GET) or a form (POST); the confirmation page posts them back with its `csrf_token`.
 */
@ApiSchema({ name: 'EndSessionRequest' })
export class EndSessionRequestDto {
  @ApiPropertyOptional({
    description:
      'An ID token this platform issued to the client (expired ones too). When it names the signed-in user and session, the session ends without asking.',
  })
  id_token_hint?: string;

  @ApiPropertyOptional({ description: 'The client; the audience of `id_token_hint` when both are sent.' })
  client_id?: string;

  @ApiPropertyOptional({
    description: 'One of the client’s registered `post_logout_redirect_uris`, matched exactly.',
  })
  post_logout_redirect_uri?: string;

  @ApiPropertyOptional({ description: 'Echoed to `post_logout_redirect_uri`.' }) state?: string;

  @ApiPropertyOptional({
    description: 'The confirmation page’s CSRF token: with it, the post is the user’s confirmation.',
  })
  csrf_token?: string;
}

/** The request as the backend read it, with the browser's session (internal). */
export class LogoutCheckDto {
  @IsOptional()
  @IsString()
  @MaxLength(512)
  session?: string;

  @IsOptional()
  @IsString()
  @MaxLength(HINT_MAX)
  id_token_hint?: string;

  @IsOptional()
  @IsString()
  @MaxLength(PARAMETER_MAX)
  client_id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(PARAMETER_MAX)
  post_logout_redirect_uri?: string;

  @IsOptional()
  @IsString()
  @MaxLength(PARAMETER_MAX)
  state?: string;
}

/** What the end-session endpoint may do with the request (internal). */
export class CheckedLogoutDto {
  client_id: string | null;
  client_name: string | null;
  /** The registered `post_logout_redirect_uri` with `state`, or null: the signed-out page. */
  redirect_to: string | null;
  session_live: boolean;
  /** The hint names the session's user and session: no confirmation needed. */
  hint_matches_session: boolean;
}

const INTERNAL = { kind: 'internal' } as const;

/** The control plane's judgement of an RP-initiated logout request (docs/internal-api.md). */
export const INTERNAL_LOGOUT_OPERATIONS = {
  check: operation({
    id: 'checkLogoutRequest',
    tag: 'Internal',
    summary: 'Judge an RP-initiated logout request',
    method: 'POST',
    path: 'internal/v1/logout/check',
    caller: INTERNAL,
    body: { type: 'json', model: LogoutCheckDto },
    answer: { status: 200, model: CheckedLogoutDto, description: 'What the end-session endpoint may do.' },
    refuses: {
      400: 'An `id_token_hint` not ours, a `client_id` not its audience or unknown, or an unregistered `post_logout_redirect_uri`.',
    },
  }),
};
