import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

/** 32 bytes in base64 (43 characters and `=`) or base64url (43). */
const KEK = /^[A-Za-z0-9+/_-]{43}=?$/;

/** The environment variables every process reads; validated once at boot. */
export class EnvironmentVariables {
  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV?: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(65535)
  BACKEND_PORT?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(65535)
  BACKEND_METRICS_PORT?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(65535)
  CONTROL_PLANE_PORT?: number;

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  CONTROL_PLANE_URL?: string;

  @IsOptional()
  @IsString()
  SIDECAR_GRPC_ADDRESS?: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(65535)
  SIDECAR_HEALTH_PORT?: number;

  @IsOptional()
  @IsString()
  DATA_DIR?: string;

  @IsOptional()
  @Matches(/^(postgres(ql)?:\/\/|sqlite:)/, {
    message: 'DATABASE_URL must start with postgres://, postgresql:// or sqlite:',
  })
  DATABASE_URL?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  ISSUER?: string;

  @IsOptional()
  @Matches(/^[A-Za-z0-9._-]{3,64}$/)
  ADMIN_CLIENT_ID?: string;

  @IsOptional()
  @IsString()
  @MinLength(16)
  ADMIN_CLIENT_SECRET?: string;

  @IsOptional()
  @IsString()
  @MinLength(32)
  INTERNAL_TOKEN?: string;

  /** The backend's key for its browser cookies and CSRF tokens; never derived from INTERNAL_TOKEN. */
  @IsOptional()
  @IsString()
  @MinLength(32)
  SESSION_SECRET?: string;

  /** Test seam: the control plane opens sessions from claims it is handed (refused in production). */
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'must be true or false' })
  TEST_SESSIONS_FROM_CLAIMS?: string;

  /** Test seam: the backend checks each success body against the API document, writing misfits here. */
  @IsOptional()
  @IsString()
  TEST_ANSWER_CHECK_FILE?: string;

  /** The key-encryption key of tenants' secrets: 32 bytes, base64 or base64url (docs/secrets.md). */
  @IsOptional()
  @Matches(KEK, { message: 'SECRETS_KEK must be 32 bytes in base64 or base64url' })
  SECRETS_KEK?: string;

  /** A file holding SECRETS_KEK instead (a mounted Kubernetes Secret). */
  @IsOptional()
  @IsString()
  SECRETS_KEK_FILE?: string;

  /** Earlier KEKs, comma-separated, still read until a rewrap has moved every data key off them. */
  @IsOptional()
  @Matches(new RegExp(`^${KEK.source.slice(1, -1)}(,${KEK.source.slice(1, -1)})*$`), {
    message: 'SECRETS_KEK_PREVIOUS must be comma-separated 32-byte keys in base64 or base64url',
  })
  SECRETS_KEK_PREVIOUS?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  OIDC_ISSUER?: string;

  @IsOptional()
  @IsString()
  OIDC_CLIENT_ID?: string;

  /** The provider's key set as the control plane reaches it, when not at the issuer's host. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  OIDC_JWKS_URL?: string;

  @IsOptional()
  @IsString()
  OIDC_CLIENT_SECRET?: string;

  /** Scopes the backend asks the identity provider for; must include `openid`. */
  @IsOptional()
  @Matches(/^(?=(?:.* )?openid(?: |$))[\x21\x23-\x5b\x5d-\x7e]+(?: [\x21\x23-\x5b\x5d-\x7e]+)*$/, {
    message: 'OIDC_SCOPES must be space-separated scope names including openid',
  })
  OIDC_SCOPES?: string;

  /** The ID token / userinfo claim holding the user's tenant (default `tenant`). */
  @IsOptional()
  @IsString()
  @MaxLength(256)
  OIDC_TENANT_CLAIM?: string;

  /** The claim holding the user's roles, an array or a space-separated string (default `roles`). */
  @IsOptional()
  @IsString()
  @MaxLength(256)
  OIDC_ROLES_CLAIM?: string;

  @IsOptional()
  @IsIn(['json', 'text'])
  LOG_FORMAT?: string;

  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  REVOCATION_POLL_MS?: number;

  @IsOptional()
  @Matches(/^(?:\d{1,6}|1000000)$/, { message: 'must be a whole number from 0 to 1000000' })
  BACKEND_TOKEN_CACHE_SIZE?: string;

  @IsOptional()
  @Matches(/^\d{1,7}$/, { message: 'must be a whole number from 0 to 9999999' })
  SIDECAR_TOKEN_CACHE_SIZE?: string;

  @IsOptional()
  @IsIn(['true', 'false'], { message: 'must be true or false' })
  SIDECAR_ALLOW_NON_LOOPBACK?: string;

  /** DPoP proofs at the token endpoint must carry a server nonce (RFC 9449 section 8; docs/tokens.md). */
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'must be true or false' })
  DPOP_NONCE_REQUIRED?: string;

  @IsOptional()
  @Matches(/^\d{1,6}$/, { message: 'must be a whole number of milliseconds' })
  SHUTDOWN_DRAIN_MS?: string;

  @IsOptional()
  @IsString()
  BACKEND_METRICS_HOST?: string;

  @IsOptional()
  @Matches(/^\d{1,4}$/, { message: 'must be a whole number of days (0 turns the schedule off)' })
  SIGNING_KEY_ROTATION_DAYS?: string;

  @IsOptional()
  @Matches(/^\d{1,5}$/, { message: 'must be a whole number of minutes from 0 to 99999' })
  RETENTION_GRACE_MINUTES?: string;

  @IsOptional()
  @Matches(/^\d{1,4}$/, { message: 'must be a whole number of days (0 keeps every token event)' })
  TOKEN_EVENT_RETENTION_DAYS?: string;

  @IsOptional()
  @Matches(/^[1-9]\d{0,3}$/, { message: 'must be a whole number of days from 1 to 9999' })
  REFRESH_TOKEN_ABSOLUTE_LIFETIME_DAYS?: string;

  @IsOptional()
  @Matches(/^([6-9]\d|[1-9]\d{2}|[1-2]\d{3}|3[0-5]\d{2}|3600)$/, {
    message: 'must be a whole number of seconds from 60 to 3600',
  })
  IMPERSONATION_MAX_LIFETIME_SECONDS?: string;

  @IsOptional()
  @Matches(/^([1-9]|[1-5]\d|6[0-4])$/, { message: 'must be a whole number from 1 to 64' })
  ARGON2_CONCURRENCY?: string;

  @IsOptional()
  @Matches(/^(\d|1\d)$/, { message: 'must be a nice value from 0 (normal) to 19 (lowest)' })
  ARGON2_NICE?: string;

  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// or rediss:// URL' })
  RATE_LIMIT_REDIS_URL?: string;

  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// or rediss:// URL' })
  QUOTA_REDIS_URL?: string;

  @IsOptional()
  @Matches(/^[A-Za-z0-9._-]{1,64}$/, { message: 'must be 1 to 64 of A-Z a-z 0-9 . _ -' })
  QUOTA_REDIS_PREFIX?: string;

  @IsOptional()
  @Matches(/^\d{1,9}$/, { message: 'must be a whole number (0 turns the limit off)' })
  RATE_LIMIT_CLIENT_PER_MINUTE?: string;

  @IsOptional()
  @Matches(/^\d{1,9}$/, { message: 'must be a whole number (0 turns the limit off)' })
  RATE_LIMIT_ADDRESS_PER_MINUTE?: string;

  @IsOptional()
  @Matches(/^\d{1,6}$/, { message: 'must be a whole number (0 turns the limit off)' })
  RATE_LIMIT_FAILED_AUTH_PER_CLIENT?: string;

  @IsOptional()
  @Matches(/^\d{1,6}$/, { message: 'must be a whole number (0 turns the limit off)' })
  RATE_LIMIT_FAILED_AUTH_PER_ADDRESS?: string;

  @IsOptional()
  @IsIn(['true', 'false'], { message: 'must be true or false' })
  WEBHOOK_ALLOW_PRIVATE_URLS?: string;

  @IsOptional()
  @Matches(/^([1-9]\d{2,3}|[1-5]\d{4}|60000)$/, {
    message: 'must be a whole number of milliseconds from 100 to 60000',
  })
  WEBHOOK_TIMEOUT_MS?: string;

  @IsOptional()
  @Matches(/^([1-9]\d{0,2}|1000)$/, { message: 'must be a whole number from 1 to 1000' })
  WEBHOOK_CONCURRENCY?: string;

  @IsOptional()
  @Matches(/^([1-9]\d{0,2}|1000)$/, { message: 'must be a whole number from 1 to 1000' })
  LIVE_STREAMS_PER_CALLER?: string;

  @IsOptional()
  @Matches(/^([1-9]\d{4,7}|[1-9]\d{8}|1000000000)$/, {
    message: 'must be a whole number of bytes from 10000 to 1000000000',
  })
  LIVE_STREAM_BUFFER_BYTES?: string;

  @IsOptional()
  @Matches(/^([1-9]\d{2,4}|[1-5]\d{5}|600000)$/, {
    message: 'must be a whole number of milliseconds from 100 to 600000',
  })
  LIVE_STREAM_STALL_MS?: string;

  @IsOptional()
  @IsString()
  SIDECAR_HEALTH_HOST?: string;

  /** The backend's proxies: a hop count or comma-separated addresses and CIDRs (read by `trustedProxies`). */
  @IsOptional()
  @IsString()
  TRUST_PROXY?: string;
}
