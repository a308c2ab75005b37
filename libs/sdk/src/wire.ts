import type {
  ActiveIntrospectionDto,
  ApplicationDto,
  DefinedScopeDto,
  InactiveIntrospectionDto,
  MeDto,
  RegisterApplicationDto,
  RegisteredApplicationDto,
  RotatedSecretDto,
  ScopeDto,
  TokenResponseDto,
} from '@platform/contract';
import type { AppType } from '@platform/domain';

/**
 * Shapes as they travel on the wire (snake_case, times as ISO 8601 UTC strings): the platform's
 * own DTOs, imported as types only, so the SDK and the server cannot drift.
 */

export type { AppType };

/** RFC 6749 section 5.1. */
export type TokenResponse = TokenResponseDto;

/** RFC 7662. An expired, revoked or unknown token is exactly `{ active: false }`. */
export type IntrospectionResponse = InactiveIntrospectionDto | ActiveIntrospectionDto;

/** The registration body; the server validates `app_type`, the SDK narrows it for its callers. */
export type RegisterAppRequest = RegisterApplicationDto & { app_type: AppType };

/** An application as the registry shows it: never a secret. */
export type Application = ApplicationDto;

/** The registration answer: the secret is shown this once (never for `spa` apps). */
export type RegisteredApplication = RegisteredApplicationDto;

/** The rotation answer: the new secret, shown this once; the old one already fails. */
export type RotatedSecret = RotatedSecretDto;

/** A scope of the listing (standard or custom). */
export type ScopeDefinition = ScopeDto;

/** A newly defined custom scope. */
export type DefinedScope = DefinedScopeDto;

/** The caller as the platform sees its token (`GET /v1/me`). */
export type Me = MeDto;
