import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  DEVICE_CODE_LIFETIME_SECONDS,
  DEVICE_POLL_INTERVAL_SECONDS,
  USER_CODE_ALPHABET,
} from '@platform/domain';
import { IsBoolean, IsString, MaxLength } from 'class-validator';
import { ScopesProperty } from './fields';
import { operation } from './operation-table';

/** The device authorization grant (RFC 8628): its endpoint's shapes, the verification page's forms. */

@ApiSchema({
  name: 'DeviceAuthorizationRequest',
  description:
    "RFC 8628 section 3.1, for a `cli` app. The client authenticates as at the token endpoint: Basic, or `client_id` and `client_secret` here; an app without a secret sends its `client_id` alone. An omitted `scope` asks for every declared scope; the authorization request's scope rules apply.",
})
export class DeviceAuthorizationRequestDto {
  @ApiPropertyOptional({ description: 'Required unless Basic authentication is used.' })
  client_id?: string;

  @ApiPropertyOptional({
    writeOnly: true,
    description: 'Required of an app holding a secret, unless Basic is used.',
  })
  client_secret?: string;

  @ScopesProperty({ required: false })
  scope?: string;
}

@ApiSchema({
  name: 'DeviceAuthorizationResponse',
  description: 'RFC 8628 section 3.2. Sent with `Cache-Control: no-store`.',
})
export class DeviceAuthorizationResponseDto {
  @ApiProperty({
    description:
      'Opaque (`plat_dc_…`), for the device alone: it polls the token endpoint with it (`grant_type` `urn:ietf:params:oauth:grant-type:device_code`). Stored as a hash only.',
  })
  device_code: string;

  @ApiProperty({
    pattern: `^[${USER_CODE_ALPHABET}]{4}-[${USER_CODE_ALPHABET}]{4}$`,
    description: `What the user types on the verification page: 8 letters of \`${USER_CODE_ALPHABET}\` (RFC 8628 section 6.1), shown as \`XXXX-XXXX\`; read case-insensitively, with or without the dash.`,
  })
  user_code: string;

  @ApiProperty({
    format: 'uri',
    description: 'The verification page (`/device`), where the user signs in and enters the code.',
  })
  verification_uri: string;

  @ApiProperty({
    format: 'uri',
    description: 'The same page with the code filled in (`?user_code=`), for a QR code or a link.',
  })
  verification_uri_complete: string;

  @ApiProperty({
    type: 'integer',
    enum: [DEVICE_CODE_LIFETIME_SECONDS],
    description: 'Seconds both codes live.',
  })
  expires_in: number;

  @ApiProperty({
    type: 'integer',
    enum: [DEVICE_POLL_INTERVAL_SECONDS],
    description: 'Seconds to wait between polls; each `slow_down` adds 5 to it.',
  })
  interval: number;
}

@ApiSchema({
  name: 'DeviceUserCodeForm',
  description: 'The verification page’s form: the code the device shows, and the page’s CSRF token.',
})
export class DeviceUserCodeFormDto {
  @ApiProperty({ description: '`XXXX-XXXX`, any case, the dash optional.' }) user_code: string;
  @ApiProperty({ description: 'HMAC of the browser session, from the page.' }) csrf_token: string;
}

@ApiSchema({
  name: 'DeviceDecisionForm',
  description:
    'The device consent page’s answer: the code, the CSRF token of the page, and the button pressed.',
})
export class DeviceDecisionFormDto extends DeviceUserCodeFormDto {
  @ApiProperty({ enum: ['approve', 'deny'] }) decision: string;
}

/*
 * The control plane's internal routes of the device flow (docs/internal-api.md): the backend
 * relays the device authorization request and renders the verification pages around the others.
 */

const INTERNAL = { kind: 'internal' } as const;
const NO_SESSION = 'The browser session is unknown or expired.';
const UNKNOWN_CODE = 'No pending request has this user code: unknown, expired, or already answered.';

/** A user code a signed-in browser entered. */
export class DeviceUserCodeDto {
  @IsString()
  @MaxLength(512)
  session: string;

  @IsString()
  @MaxLength(64)
  user_code: string;
}

export class DeviceDecisionDto extends DeviceUserCodeDto {
  @IsBoolean()
  approved: boolean;
}

/** The request a user code names, with what the consent page shows. */
export class DevicePromptDto {
  client_id: string;
  client_name: string;
  /** As the device shows it, `XXXX-XXXX`. */
  user_code: string;
  scopes: { name: string; description: string }[];
  /** Who is signed in. */
  user: { name: string | null; email: string | null };
}

export class DeviceDecidedDto {
  status: 'approved' | 'denied';
}

export const INTERNAL_DEVICE_OPERATIONS = {
  authorize: operation({
    id: 'authorizeDeviceForClient',
    tag: 'Internal',
    summary:
      'Device authorization request (RFC 8628 section 3.1), the client’s form and Authorization header as sent',
    method: 'POST',
    path: 'internal/v1/oauth/device_authorization',
    caller: INTERNAL,
    answer: {
      status: 200,
      model: DeviceAuthorizationResponseDto,
      description: 'The device code and the user code.',
    },
  }),
  check: operation({
    id: 'checkDeviceUserCode',
    tag: 'Internal',
    summary: 'The pending request a user code names, for the consent page',
    method: 'POST',
    path: 'internal/v1/device/check',
    caller: INTERNAL,
    body: { type: 'json', model: DeviceUserCodeDto },
    answer: { status: 200, model: DevicePromptDto, description: 'The request and its client.' },
    refuses: { 401: NO_SESSION, 404: UNKNOWN_CODE },
  }),
  decision: operation({
    id: 'decideDeviceAuthorization',
    tag: 'Internal',
    summary: 'The signed-in user’s approval or denial of the request a user code names',
    method: 'POST',
    path: 'internal/v1/device/decision',
    caller: INTERNAL,
    body: { type: 'json', model: DeviceDecisionDto },
    answer: { status: 200, model: DeviceDecidedDto, description: 'What was recorded.' },
    refuses: { 401: NO_SESSION, 404: UNKNOWN_CODE },
  }),
};
