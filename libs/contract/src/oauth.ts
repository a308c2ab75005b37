import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  MAX_ACCESS_TOKEN_LENGTH,
  MAX_IMPERSONATION_REASON_LENGTH,
  DEVICE_CODE_GRANT,
  JWT_BEARER_GRANT,
  SAML2_BEARER_GRANT,
  ROLE_BUNDLE,
  TOKEN_EXCHANGE_GRANT,
  TOKEN_TYPE,
  type ImpersonationClaim,
  type RevocationEntry,
} from '@platform/domain';
import { IsString, MaxLength } from 'class-validator';
import { ScopesProperty, UnixSecondsProperty } from './fields';
import { operation } from './operation-table';
import { ActorProperty, ImpersonationProperty, type TokenActorDto } from './token-claims';

/** RFC 6749, 7662 and 7009 bodies. The form bodies are parsed by the control plane's OAuth handlers. */

@ApiSchema({
  name: 'TokenResponse',
  description: 'RFC 6749 section 5.1. Sent with `Cache-Control: no-store` and `Pragma: no-cache`.',
})
export class TokenResponseDto {
  @ApiProperty({
    description:
      'An RS256 JWT (RFC 9068, header `typ: at+jwt`, `kid`). Claims: `iss`, `sub`, `aud` (the issuer, or the one `resource` asked for), `exp`, `iat`, `jti`, `client_id`, `scope`; user tokens add `tenant`, `roles` and `grant_id`; exchanged tokens `act` (the actor chain, RFC 8693 section 4.1), impersonation tokens `impersonation` (`full` or `read_only`).',
  })
  access_token: string;

  @ApiProperty({
    enum: ['Bearer', 'DPoP'],
    description:
      '`DPoP` when the request carried a DPoP proof (RFC 9449): the access token is bound to its key (`cnf.jkt`) and is presented as `Authorization: DPoP` with a proof (docs/tokens.md, "DPoP").',
  })
  token_type: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: 3600,
    description:
      'Seconds: 3600, less for an exchanged token (never beyond its subject token) or an impersonation token (at most IMPERSONATION_MAX_LIFETIME_SECONDS). Refresh at 80% of it.',
  })
  expires_in: number;

  @ScopesProperty()
  scope: string;

  @ApiPropertyOptional({
    description:
      'Opaque; for the `authorization_code`, `refresh_token` and device code grants only. Rotates on every use and lives 30 days from its issue; presenting a rotated one revokes the whole grant.',
  })
  refresh_token?: string;

  @ApiPropertyOptional({
    description:
      'OpenID Connect: when the scope holds `openid` (code exchange and refresh). An RS256 JWT (header `typ: JWT`): `iss`, `sub` (the user id), `aud` (the client_id), `exp` (1 hour), `iat`, `at_hash`, the request’s `nonce`, and for a browser login `auth_time`, `sid` and `amr: ["fed"]` (docs/openid-connect.md).',
  })
  id_token?: string;

  @ApiPropertyOptional({
    enum: [TOKEN_TYPE.accessToken, TOKEN_TYPE.jwt],
    description:
      'Token exchange only (RFC 8693 section 2.2.1): the `requested_token_type`, access_token by default.',
  })
  issued_token_type?: string;
}

/** Client authentication in the body (`client_secret_post`), shared by every OAuth form. */
class ClientAuthenticationFields {
  @ApiPropertyOptional({
    description: 'Required unless Basic authentication is used (or, for public clients, alone).',
  })
  client_id?: string;

  @ApiPropertyOptional({
    writeOnly: true,
    description: 'Required unless Basic authentication or a `client_assertion` is used.',
  })
  client_secret?: string;

  @ApiPropertyOptional({
    enum: ['urn:ietf:params:oauth:client-assertion-type:jwt-bearer'],
    description:
      'private_key_jwt (RFC 7523 section 2.2), with `client_assertion`: docs/workload-identity.md.',
  })
  client_assertion_type?: string;

  @ApiPropertyOptional({
    writeOnly: true,
    description:
      'private_key_jwt: a JWT signed (RS256, PS256 or ES256) with a key the app registered (`jwks` or `jwks_uri`): `iss` and `sub` the client_id, `aud` the issuer (or the token endpoint URL), `exp` at most 5 minutes ahead, a `jti` never used before. Any refusal: **401** `invalid_client`.',
  })
  client_assertion?: string;
}

/** What every grant of the token endpoint takes beside its own parameters. */
class TokenRequestFields extends ClientAuthenticationFields {
  @ApiPropertyOptional({
    format: 'uri',
    description:
      "RFC 8707: the one resource the access token is for (an app's registered `resource_uri`); the token's `aud` is then that URI and the platform's own API refuses it. Absent: `aud` is the issuer. An unknown resource, one with a fragment, or a second `resource` or `audience`: `invalid_target`.",
  })
  resource?: string;
}

@ApiSchema({
  name: 'ClientCredentialsTokenRequest',
  description:
    'Service model. Authenticate with `client_secret_basic` (Authorization: Basic) or with `client_id` and `client_secret` in this body (`client_secret_post`), never both. An omitted `scope` grants every declared scope.',
})
export class ClientCredentialsTokenRequestDto extends TokenRequestFields {
  @ApiProperty({ enum: ['client_credentials'] })
  grant_type: string;

  @ScopesProperty({ required: false })
  scope?: string;
}

@ApiSchema({
  name: 'AuthorizationCodeTokenRequest',
  description:
    'Exchange of a code from `/oauth/authorize` (single use, 60 s), server-side. PKCE S256 is mandatory. Public clients send `client_id` alone; a client with a secret may authenticate with it.',
})
export class AuthorizationCodeTokenRequestDto extends TokenRequestFields {
  @ApiProperty({ enum: ['authorization_code'] })
  grant_type: string;

  @ApiProperty()
  code: string;

  @ApiProperty({ format: 'uri', description: 'Exactly the one of the authorization request.' })
  redirect_uri: string;

  @ApiProperty({ minLength: 43, maxLength: 128 })
  code_verifier: string;
}

@ApiSchema({
  name: 'RefreshTokenRequest',
  description:
    'Swaps a refresh token for a new access token and a new refresh token; the presented one is revoked at once. `scope` may only narrow the original grant.',
})
export class RefreshTokenRequestDto extends TokenRequestFields {
  @ApiProperty({ enum: ['refresh_token'] })
  grant_type: string;

  @ApiProperty()
  refresh_token: string;

  @ScopesProperty({ required: false })
  scope?: string;
}

@ApiSchema({
  name: 'TokenExchangeRequest',
  description:
    "RFC 8693 token exchange, by a confidential client whose registry entry allows it (docs/tokens.md). Delegation: `subject_token` is a platform access token the client received; the answer names the client (or the `actor_token`'s subject) in `act`, in front of the subject's chain. Impersonation: `subject_token_type` `urn:platform:params:oauth:token-type:user_id`, `subject_token` the user id, `actor_token` the impersonator's own token and a `reason`. No refresh token is issued.",
})
export class TokenExchangeRequestDto extends TokenRequestFields {
  @ApiProperty({ enum: [TOKEN_EXCHANGE_GRANT] })
  grant_type: string;

  @ApiProperty({ description: 'A platform access token, or for impersonation the user id.' })
  subject_token: string;

  @ApiProperty({ enum: [TOKEN_TYPE.accessToken, TOKEN_TYPE.jwt, TOKEN_TYPE.userId] })
  subject_token_type: string;

  @ApiPropertyOptional({
    description: "The acting party's own access token, issued to this client; required to impersonate.",
  })
  actor_token?: string;

  @ApiPropertyOptional({ enum: [TOKEN_TYPE.accessToken, TOKEN_TYPE.jwt] })
  actor_token_type?: string;

  @ApiPropertyOptional({ enum: [TOKEN_TYPE.accessToken, TOKEN_TYPE.jwt] })
  requested_token_type?: string;

  @ApiPropertyOptional({
    description:
      'A registered resource URI or the client_id of the app registered as it; one of `audience` or `resource`.',
  })
  audience?: string;

  @ScopesProperty({ required: false })
  scope?: string;

  @ApiPropertyOptional({
    maxLength: MAX_IMPERSONATION_REASON_LENGTH,
    description: 'Impersonation only, required: why, for the audit log.',
  })
  reason?: string;
}

@ApiSchema({
  name: 'DeviceCodeTokenRequest',
  description:
    "RFC 8628 section 3.4, for a `cli` app: the device polls with its `device_code` (from `POST /v1/oauth/device_authorization`) every `interval` seconds until the user answered on the verification page. Meanwhile **400** `authorization_pending`, or `slow_down` for a poll that came too soon (the interval then grows by 5 s); `access_denied` when the user denied, `expired_token` after 600 s; the user's tokens once approved, and `invalid_grant` for every poll after (or a code of another client). An app holding a secret authenticates with it; one without sends `client_id` alone.",
})
export class DeviceCodeTokenRequestDto extends TokenRequestFields {
  @ApiProperty({ enum: [DEVICE_CODE_GRANT] })
  grant_type: string;

  @ApiProperty()
  device_code: string;
}

@ApiSchema({
  name: 'JwtBearerTokenRequest',
  description:
    'RFC 7523 section 2.1, workload identity federation (docs/workload-identity.md): a workload (a Kubernetes pod, a CI job) presents its own token from an issuer a tenant trusts, and gets a token of the app the tenant’s rule maps it to, with the rule’s scopes (or fewer), living no longer than the workload’s token. No client authentication: the token is the credential. Any refusal (untrusted issuer, bad signature, expired, no rule or several matching, presented before): **400** `invalid_grant` with one description.',
})
export class JwtBearerTokenRequestDto {
  @ApiProperty({ enum: [JWT_BEARER_GRANT] })
  grant_type: string;

  @ApiProperty({
    writeOnly: true,
    description: 'The workload’s own signed JWT (RS256, PS256 or ES256), used once.',
  })
  assertion: string;

  @ScopesProperty({ required: false })
  scope?: string;

  @ApiPropertyOptional({ description: 'Picks the app when several rules match the token.' })
  client_id?: string;
}

@ApiSchema({
  name: 'Saml2BearerTokenRequest',
  description:
    'RFC 7522 section 2.1, the SAML 2.0 bearer assertion grant (docs/saml.md): a `service` app bound to a tenant, authenticated as at every grant, trades an assertion of its tenant’s SAML identity provider for an access token of the user the assertion names (no refresh token). The assertion must be signed by the IdP (RSA-SHA256 or stronger), name the token endpoint URL as its `Audience` and its bearer `SubjectConfirmationData` `Recipient`, be within its validity (60 s of clock skew), and is taken once. Any refusal of the assertion: **400** `invalid_grant` with one description; an app of no tenant or of another type: `unauthorized_client`.',
})
export class Saml2BearerTokenRequestDto extends TokenRequestFields {
  @ApiProperty({ enum: [SAML2_BEARER_GRANT] })
  grant_type: string;

  @ApiProperty({
    writeOnly: true,
    description:
      'One SAML 2.0 `Assertion` (not a Response), base64url-encoded (RFC 7522 section 2.1); used once.',
  })
  assertion: string;

  @ScopesProperty({ required: false, description: 'Among the app’s declared scopes; absent: all of them.' })
  scope?: string;
}

/** The grants of the token endpoint, in the order the document lists them. */
export const TOKEN_REQUESTS = [
  ClientCredentialsTokenRequestDto,
  AuthorizationCodeTokenRequestDto,
  RefreshTokenRequestDto,
  TokenExchangeRequestDto,
  DeviceCodeTokenRequestDto,
  JwtBearerTokenRequestDto,
  Saml2BearerTokenRequestDto,
] as const;

@ApiSchema({
  name: 'IntrospectionRequest',
  description:
    'RFC 7662 section 2.1. The caller authenticates with its secret (Basic, or `client_id` and `client_secret` here). `token_type_hint` is accepted and ignored: both kinds are looked up.',
})
export class IntrospectionRequestDto extends ClientAuthenticationFields {
  @ApiProperty({ description: 'An access token (JWT) or a refresh token.' })
  token: string;

  @ApiPropertyOptional({ enum: ['access_token', 'refresh_token'] })
  token_type_hint?: string;
}

@ApiSchema({
  name: 'RevocationRequest',
  description:
    'RFC 7009 section 2.1. Authenticate with the secret (Basic or form); an app without a secret (`spa`) sends its `client_id` alone. `token_type_hint` is accepted and ignored.',
})
export class RevocationRequestDto extends IntrospectionRequestDto {}

@ApiSchema({
  name: 'TokenConfirmation',
  description: 'RFC 7800 confirmation of a DPoP-bound token (RFC 9449 section 6.1).',
})
export class TokenConfirmationDto {
  @ApiProperty({ description: 'The RFC 7638 SHA-256 thumbprint (base64url) of the DPoP public key.' })
  jkt: string;
}

@ApiSchema({ name: 'ActiveIntrospection' })
export class ActiveIntrospectionDto {
  @ApiProperty({ enum: [true] })
  active: boolean;

  @ApiProperty()
  client_id: string;

  @ScopesProperty()
  scope: string;

  @ApiProperty({ description: 'The client_id for service tokens, the user id for user tokens.' })
  sub: string;

  @UnixSecondsProperty()
  iat: number;

  @UnixSecondsProperty()
  exp: number;

  @ApiProperty()
  iss: string;

  @ApiProperty({ description: 'The issuer, or the one resource the token is for (RFC 8707).' })
  aud: string;

  @ApiPropertyOptional({ description: 'Access tokens only.' })
  jti?: string;

  @ApiProperty({
    enum: ['Bearer', 'DPoP', 'refresh_token'],
    description: '`DPoP` for a DPoP-bound access token.',
  })
  token_type: string;

  @ApiPropertyOptional({
    description:
      "A user token's tenant, or the tenant of the app a service token is bound to (docs/authorization.md).",
  })
  tenant?: string;

  @ApiPropertyOptional({ enum: [...ROLE_BUNDLE], isArray: true, description: 'User tokens only.' })
  roles?: string[];

  @ActorProperty()
  act?: TokenActorDto;

  @ImpersonationProperty()
  impersonation?: ImpersonationClaim;

  @ApiPropertyOptional({
    type: () => TokenConfirmationDto,
    description: 'A DPoP-bound token: the key it is bound to (RFC 9449 section 6.2).',
  })
  cnf?: TokenConfirmationDto;
}

@ApiSchema({
  name: 'InactiveIntrospection',
  description: 'Exactly `{"active": false}`: expired, revoked, unknown, or not the caller’s to see.',
})
export class InactiveIntrospectionDto {
  @ApiProperty({ enum: [false] })
  active: boolean;
}

@ApiSchema({ name: 'EmptyObject', description: 'Always `{}`.' })
export class EmptyObjectDto {}

/*
 * The control plane's internal routes of the tokens (docs/internal-api.md), for the backend and
 * the sidecars; their answers are typed here without being part of the public document.
 */

const INTERNAL = { kind: 'internal' } as const;

/** The RFC 7009 revocations the backend relays (`POST /oauth/revoke`, the form verbatim). */
/** The answer to one request of a token batch: what the control plane would have answered it alone. */
export class TokenBatchAnswerDto {
  status: number;
  headers: Record<string, string>;
  /** The RFC 6749 token response or error object. */
  body: object;
}

/** The answers of a token batch, in the order of its requests (docs/internal-api.md). */
export class TokenBatchAnswersDto {
  answers: TokenBatchAnswerDto[];
}

export const INTERNAL_OAUTH_OPERATIONS = {
  tokenBatch: operation({
    id: 'issueTokenBatch',
    tag: 'Internal',
    summary:
      'The token requests a backend received in one turn of its event loop, each answered as if it had come alone',
    method: 'POST',
    path: 'internal/v1/oauth/token-batch',
    caller: INTERNAL,
    answer: { status: 200, model: TokenBatchAnswersDto, description: 'One answer per request, in order.' },
  }),
  introspect: operation({
    id: 'introspectForClient',
    tag: 'Internal',
    summary: 'Token introspection (RFC 7662), the client’s form and Authorization header as sent',
    method: 'POST',
    path: 'internal/v1/oauth/introspect',
    caller: INTERNAL,
    answer: {
      status: 200,
      model: { oneOf: [ActiveIntrospectionDto, InactiveIntrospectionDto] },
      description: 'The token’s state; how far the client sees in `x-introspection-reach`.',
    },
  }),
  revoke: operation({
    id: 'revokeClientToken',
    tag: 'Internal',
    summary: 'Token revocation (RFC 7009), the client’s form and Authorization header as sent',
    method: 'POST',
    path: 'internal/v1/oauth/revoke',
    caller: INTERNAL,
    answer: { status: 200, model: EmptyObjectDto, description: 'Revoked, or nothing to revoke.' },
  }),
};

/** An access token a sidecar was given, to revoke. */
export class TrustedRevocationDto {
  @IsString()
  @MaxLength(MAX_ACCESS_TOKEN_LENGTH)
  token: string;
}

export class TrustedRevocationResultDto {
  /** Whether the token was live and is now on the deny-list. */
  revoked: boolean;
}

/** A page of the deny-list feed, and the seq to continue from. */
export class RevocationPageDto {
  revocations: RevocationEntry[];
  last_seq: number;
}

const REVOCATIONS_PATH = 'internal/v1/revocations';

/** The deny-list feed the sidecars follow, and the revocation of a token they judged. */
export const REVOCATION_FEED_OPERATIONS = {
  revoke: operation({
    id: 'revokeTrustedToken',
    tag: 'Internal',
    summary: 'Revoke an access token a sidecar was given (no client authentication)',
    method: 'POST',
    path: REVOCATIONS_PATH,
    caller: INTERNAL,
    body: { type: 'json', model: TrustedRevocationDto },
    answer: { status: 200, model: TrustedRevocationResultDto, description: 'Whether it was revoked.' },
  }),
  after: operation({
    id: 'listRevocations',
    tag: 'Internal',
    summary: 'The deny-list entries after a seq (`after`, `limit`), ascending',
    method: 'GET',
    path: REVOCATIONS_PATH,
    caller: INTERNAL,
    answer: { status: 200, model: RevocationPageDto, description: 'The page.' },
  }),
  active: operation({
    id: 'listActiveRevocations',
    tag: 'Internal',
    summary: 'The whole live deny-list, and the seq to follow the stream from',
    method: 'GET',
    path: `${REVOCATIONS_PATH}/active`,
    caller: INTERNAL,
    answer: { status: 200, model: RevocationPageDto, description: 'The live entries.' },
  }),
  stream: operation({
    id: 'streamRevocations',
    tag: 'Internal',
    summary: 'The deny-list entries, live',
    description: 'Server-Sent Events: one event per entry, `id` = seq, so a reconnect resumes with `after`.',
    method: 'GET',
    path: `${REVOCATIONS_PATH}/stream`,
    caller: INTERNAL,
    answer: { status: 200, description: 'The entries after `after`, then each one as it is added.' },
  }),
};
