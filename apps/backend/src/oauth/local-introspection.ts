import { timingSafeEqual } from 'node:crypto';
import {
  accessTokenIntrospection,
  type IntrospectionResponse,
  isCompactJws,
  parseOAuthForm,
  type PresentedClientCredentials,
  readClientCredentials,
  SecretDigests,
} from '@platform/domain';
import { mediaType, type PlatformRequest } from '@platform/http';
import { INTROSPECTION_REACH_HEADER } from '@platform/internal';
import type { UpstreamResponse } from '../clients/control-plane.client';
import type { LocalTokenVerifier } from '../auth/local-token-verifier';
import type { ValidatedTokenCache } from '../auth/validated-token-cache';

/** Callers remembered at most; the oldest goes first. */
const MAX_CALLERS = 10_000;

interface RememberedCaller {
  /** Digest of method, client_id and secret (SecretDigests). */
  digest: Buffer;
  seesAnyToken: boolean;
  /** The token cache's generation when the control plane was asked: any invalidation since voids it. */
  generation: number;
}

/** What a relayed introspection carried, read before it is sent. */
export interface IntrospectionAttempt {
  credentials: PresentedClientCredentials & { clientSecret: string };
  token: string;
  generation: number;
}

/**
 * Introspection answered at the backend (docs/performance.md): a caller the control plane
 * authenticated before, presenting the same credentials, asking about an access token the backend
 * judges itself (ValidatedTokenCache, LocalTokenVerifier: the sidecar's keys and deny-list), gets
 * the control plane's answer without a hop. Everything else is relayed: refresh tokens, failed or
 * new credentials, malformed requests (the control plane's errors stay the one source), tokens
 * the backend cannot judge. A remembered authentication lasts only while nothing is invalidated:
 * any deny-list entry the sidecar streams (an app deleted, a secret rotated, any revocation), or
 * the stream going dark, voids every one, so the next request of each caller is relayed again.
 */
export class LocalIntrospection {
  private readonly digests = new SecretDigests();
  private readonly callers = new Map<string, RememberedCaller>();

  constructor(
    private readonly cache: ValidatedTokenCache,
    private readonly verifier: LocalTokenVerifier,
  ) {}

  /** The request's credentials and token when it is one this class could answer; else undefined. */
  read(request: PlatformRequest): IntrospectionAttempt | undefined {
    if (mediaType(request) !== 'application/x-www-form-urlencoded') return undefined;
    let params: Record<string, string>;
    let credentials: PresentedClientCredentials;
    try {
      params = parseOAuthForm(request.rawBody ?? '');
      credentials = readClientCredentials(params, request.headers.authorization);
    } catch {
      return undefined;
    }
    const { token } = params;
    if (credentials.clientSecret === undefined || token === undefined || !isCompactJws(token))
      return undefined;
    return {
      credentials: { ...credentials, clientSecret: credentials.clientSecret },
      token,
      generation: this.cache.generation,
    };
  }

  /** The answer, when the caller is remembered and the token judged here; undefined: relay it. */
  answer(attempt: IntrospectionAttempt): IntrospectionResponse | undefined {
    const { credentials, token } = attempt;
    const caller = this.callers.get(credentials.clientId);
    if (caller === undefined || caller.generation !== this.cache.generation || !this.cache.isLive)
      return undefined;
    if (!timingSafeEqual(caller.digest, this.digestOf(credentials))) return undefined;
    const claims = this.cache.get(token) ?? this.verifyHere(token);
    if (claims === undefined) return undefined;
    return accessTokenIntrospection(claims, credentials.clientId, caller.seesAnyToken);
  }

  /** One signature check, then kept in the token cache as BearerGuard keeps what it verifies. */
  private verifyHere(token: string) {
    const claims = this.verifier.verify(token);
    if (claims !== undefined) this.cache.remember(token, claims, this.cache.generation);
    return claims;
  }

  /**
   * After a relayed introspection: a 200 means the control plane authenticated the caller; it is
   * remembered with the reach the control plane named, unless anything was invalidated meanwhile.
   * The header stays between the two.
   */
  settle(attempt: IntrospectionAttempt | undefined, response: UpstreamResponse): void {
    const reach = response.headers[INTROSPECTION_REACH_HEADER];
    delete response.headers[INTROSPECTION_REACH_HEADER];
    if (attempt === undefined || response.status !== 200 || (reach !== 'any' && reach !== 'own')) return;
    if (attempt.generation !== this.cache.generation || !this.cache.isLive) return;
    const { clientId } = attempt.credentials;
    if (this.callers.size >= MAX_CALLERS && !this.callers.has(clientId)) {
      this.callers.delete(this.callers.keys().next().value as string);
    }
    this.callers.set(clientId, {
      digest: this.digestOf(attempt.credentials),
      seesAnyToken: reach === 'any',
      generation: attempt.generation,
    });
  }

  private digestOf({ method, clientId, clientSecret }: IntrospectionAttempt['credentials']): Buffer {
    return this.digests.of(method, clientId, clientSecret);
  }
}
