import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { importJWK, type CryptoKey, type JWK } from 'jose';
import { BackgroundLoop, Backoff } from '@platform/domain';
import { CLOCK } from '../clock';
import { type Clock } from '@platform/domain';
import { SIDECAR_CONFIG, type SidecarConfig } from '../config/sidecar-config';
import { ControlPlaneApi } from '../control-plane/control-plane-api';
import { Readiness } from '../health/readiness';

/** The only signature algorithms the sidecar accepts (never `none`, never an HMAC). */
export const ALLOWED_ALGORITHMS = ['RS256', 'ES256', 'PS256'] as const;
export type SigningAlgorithm = (typeof ALLOWED_ALGORITHMS)[number];

/** A trusted key: its public JWK and one imported key per algorithm it may verify. */
interface TrustedKey {
  jwk: JWK;
  /** Serialized public JWK, to reuse the imported keys when a refresh brings the same key. */
  fingerprint: string;
  byAlgorithm: ReadonlyMap<string, CryptoKey>;
}

/**
 * The key set the sidecar trusts, from the control plane's `GET /api/v1/jwks`: loaded at start,
 * refreshed every `keyRefreshMs`, and once more (at most every `unknownKidRefreshIntervalMs`)
 * when a token names a `kid` it does not know. Keys are imported once per refresh; a lookup on
 * the hot path is two Map reads.
 */
@Injectable()
export class KeyCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(KeyCache.name);
  private keys: ReadonlyMap<string, TrustedKey> = new Map();
  private inFlight: Promise<void> | undefined;
  private lastUnknownKidRefresh = Number.NEGATIVE_INFINITY;
  private loaded = false;
  private readonly loop: BackgroundLoop;
  private readonly changeWatchers = new Set<() => void>();

  constructor(
    private readonly controlPlane: ControlPlaneApi,
    @Inject(SIDECAR_CONFIG) private readonly config: SidecarConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readiness: Readiness,
  ) {
    this.loop = new BackgroundLoop({
      what: 'key set refresh',
      run: () => this.refresh(),
      everyMs: config.keyRefreshMs,
      immediate: true,
      backoff: new Backoff(500, config.keyRefreshMs),
      logger: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** The imported key of `kid` for `alg`: undefined when the kid is unknown or the key cannot verify `alg`. */
  find(kid: string, alg: string): CryptoKey | undefined {
    return this.keys.get(kid)?.byAlgorithm.get(alg);
  }

  has(kid: string): boolean {
    return this.keys.has(kid);
  }

  /**
   * Tells `watcher` whenever a refresh changed the trusted set (a key added, dropped or
   * replaced; tokens of a dropped key are refused from then on). Answers the unsubscribe.
   */
  watchChanges(watcher: () => void): () => void {
    this.changeWatchers.add(watcher);
    return () => this.changeWatchers.delete(watcher);
  }

  /** The public JWKs currently trusted (public members, `kid`, `use`, `alg` only). */
  publicKeys(): JWK[] {
    return [...this.keys.values()].map((key) => key.jwk);
  }

  /**
   * Refreshes now because a token named an unknown `kid`, unless another such refresh ran less
   * than `unknownKidRefreshIntervalMs` ago. A refresh already running is awaited instead.
   * Never rejects: the caller looks the kid up again either way.
   */
  async refreshForUnknownKid(): Promise<void> {
    if (!this.inFlight) {
      const now = this.clock.now().getTime();
      if (now - this.lastUnknownKidRefresh < this.config.unknownKidRefreshIntervalMs) return;
      this.lastUnknownKidRefresh = now;
    }
    try {
      await this.refresh();
    } catch (error) {
      this.logger.warn(`key refresh for an unknown kid failed: ${(error as Error).message}`);
    }
  }

  /** Fetches and imports the key set; concurrent callers share one fetch. */
  refresh(): Promise<void> {
    this.inFlight ??= this.load().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async load(): Promise<void> {
    const { keys } = await this.controlPlane.fetchJwks();
    const imported = await Promise.all(keys.map((jwk) => this.trust(jwk)));
    const next = new Map<string, TrustedKey>();
    for (const key of imported)
      if (key && !next.has(key.jwk.kid as string)) next.set(key.jwk.kid as string, key);
    const changed =
      next.size !== this.keys.size || [...this.keys].some(([kid, key]) => next.get(kid) !== key);
    this.keys = next;
    if (changed) for (const watcher of this.changeWatchers) watcher();
    if (!this.loaded) {
      this.loaded = true;
      this.logger.log(`key set loaded (${next.size} key${next.size === 1 ? '' : 's'})`);
      this.readiness.markLoaded('keys');
    }
  }

  private async trust(published: JWK): Promise<TrustedKey | undefined> {
    const jwk = publicJwk(published);
    if (!jwk) {
      this.logger.warn(
        `ignoring a published key that cannot verify RS256/ES256/PS256 (kid ${String(published.kid)})`,
      );
      return undefined;
    }
    const fingerprint = JSON.stringify(jwk);
    const known = this.keys.get(jwk.kid as string);
    if (known?.fingerprint === fingerprint) return known;
    const byAlgorithm = new Map<string, CryptoKey>();
    for (const alg of algorithmsOf(jwk)) {
      try {
        const key = await importJWK({ ...jwk, alg }, alg, { extractable: false });
        if (!(key instanceof Uint8Array)) byAlgorithm.set(alg, key);
      } catch (error) {
        this.logger.warn(`could not import key ${String(jwk.kid)} for ${alg}: ${(error as Error).message}`);
      }
    }
    return byAlgorithm.size > 0 ? { jwk, fingerprint, byAlgorithm } : undefined;
  }
}

/**
 * The public members of a signature key we can use, with `kid`, `use` and `alg`; undefined for
 * a symmetric key, an encryption key, a key without `kid`, or an algorithm outside the list.
 * Private members (`d`, `p`, ...) are never kept, even if the control plane sent them.
 */
function publicJwk(jwk: JWK): JWK | undefined {
  if (typeof jwk.kid !== 'string' || jwk.kid === '') return undefined;
  if (jwk.use !== undefined && jwk.use !== 'sig') return undefined;
  if (jwk.alg !== undefined && !(ALLOWED_ALGORITHMS as readonly string[]).includes(jwk.alg)) return undefined;
  const common = { kid: jwk.kid, use: 'sig', ...(jwk.alg ? { alg: jwk.alg } : {}) };
  if (jwk.kty === 'RSA' && typeof jwk.n === 'string' && typeof jwk.e === 'string') {
    if (jwk.alg === 'ES256') return undefined;
    return { kty: 'RSA', n: jwk.n, e: jwk.e, ...common };
  }
  if (jwk.kty === 'EC' && jwk.crv === 'P-256' && typeof jwk.x === 'string' && typeof jwk.y === 'string') {
    if (jwk.alg !== undefined && jwk.alg !== 'ES256') return undefined;
    return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, ...common };
  }
  return undefined;
}

/** RSA keys without `alg` verify RS256 and PS256; a P-256 key, ES256. */
function algorithmsOf(jwk: JWK): SigningAlgorithm[] {
  if (jwk.alg) return [jwk.alg as SigningAlgorithm];
  return jwk.kty === 'RSA' ? ['RS256', 'PS256'] : ['ES256'];
}
