import { correlationId } from '@platform/telemetry';
import { decodeJwt, type JWK } from 'jose';
import { ControlPlaneApi } from '../control-plane/control-plane-api';
import type { DefinitionPage, JsonWebKeySet, RevocationPage } from '../control-plane/control-plane.types';
import type { QuotaAnswerDto, QuotaConsumptionDto } from '@platform/contract';
import {
  PlanCatalog,
  quotaWindow,
  type DefinitionChange,
  type RevocationEntry,
  type RevocationKind,
} from '@platform/domain';
import { SidecarError } from '../errors';

/**
 * An in-memory control plane behind our own `ControlPlaneApi` contract: a key set, an
 * ordered revocation feed, and a live stream. Flip `reachable` to simulate an outage.
 */
export class FakeControlPlane extends ControlPlaneApi {
  keys: JWK[] = [];
  reachable = true;
  /**
   * When false, new streams are refused and open ones deliver nothing (a lagging or broken
   * stream), so only the pull paths can bring revocations in.
   */
  streaming = true;
  readonly calls = { jwks: 0, active: 0, after: 0, revoke: 0, streams: 0 };
  /** The `after` seq of every stream opened, in order. */
  readonly streamsOpenedAfter: number[] = [];
  /** The correlation id in context at each `revokeAccessToken`, in order. */
  readonly revokedUnder: Array<string | undefined> = [];
  private readonly entries: RevocationEntry[] = [];
  private readonly subscribers = new Set<(entry: RevocationEntry) => void>();
  private readonly breakers = new Set<() => void>();
  private pendingJwks: Promise<void> | undefined;

  get lastSeq(): number {
    return this.entries.at(-1)?.seq ?? 0;
  }

  publish(...keys: JWK[]): void {
    this.keys = keys;
  }

  /** Holds every `fetchJwks` until the returned function is called. */
  holdJwks(): () => void {
    let release!: () => void;
    this.pendingJwks = new Promise((resolve) => (release = resolve));
    return () => {
      this.pendingJwks = undefined;
      release();
    };
  }

  revoke(
    kind: RevocationKind,
    value: string,
    times: { createdAt?: number; expiresAt?: number } = {},
  ): RevocationEntry {
    const createdAt = times.createdAt ?? Math.floor(Date.now() / 1000);
    const entry: RevocationEntry = {
      seq: this.lastSeq + 1,
      kind,
      value,
      created_at: createdAt,
      expires_at: times.expiresAt ?? createdAt + 3600,
    };
    this.entries.push(entry);
    if (this.streaming) for (const subscriber of this.subscribers) subscriber(entry);
    return entry;
  }

  /** Replaces the feed, as a control plane with a fresh database would (seq restarts). */
  resetFeed(): void {
    this.entries.length = 0;
  }

  /** Fails every open stream, as a dropped connection would. */
  breakStreams(): void {
    for (const breaker of this.breakers) breaker();
  }

  async fetchJwks(): Promise<JsonWebKeySet> {
    this.calls.jwks++;
    await this.pendingJwks;
    this.ensureReachable();
    return { keys: structuredClone(this.keys) };
  }

  async fetchActiveRevocations(): Promise<RevocationPage> {
    this.calls.active++;
    this.ensureReachable();
    return { revocations: [...this.entries], last_seq: this.lastSeq };
  }

  /** Definition changes, as the control plane's feed would carry them (`publishDefinition`). */
  readonly definitionChanges: DefinitionChange[] = [];
  /** When false, definition streams are refused (the sidecar falls back to reading the feed). */
  streamingDefinitions = true;
  readonly definitionStreamsOpenedAfter: number[] = [];
  private readonly definitionWaiters = new Set<() => void>();

  publishDefinition(change: Omit<DefinitionChange, 'seq'>): void {
    this.definitionChanges.push({ ...change, seq: this.definitionChanges.length + 1 });
    for (const wake of this.definitionWaiters) wake();
  }

  async *streamDefinitions(
    afterSeq: number,
    signal: AbortSignal,
    onOpen?: () => void,
  ): AsyncGenerator<DefinitionChange> {
    this.definitionStreamsOpenedAfter.push(afterSeq);
    this.ensureReachable();
    if (!this.streamingDefinitions) throw new SidecarError('control_plane_unavailable', 'stream refused');
    onOpen?.();
    let cursor = afterSeq;
    while (!signal.aborted) {
      const next = this.definitionChanges.find((change) => change.seq > cursor);
      if (next) {
        cursor = next.seq;
        yield next;
        continue;
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.definitionWaiters.delete(wake);
          signal.removeEventListener('abort', wake);
          resolve();
        };
        this.definitionWaiters.add(wake);
        signal.addEventListener('abort', wake);
      });
    }
  }

  async fetchDefinitionsAfter(afterSeq: number, limit: number): Promise<DefinitionPage> {
    if (!this.reachable) throw new SidecarError('control_plane_unavailable', 'control plane unreachable');
    const page = this.definitionChanges.filter((c) => c.seq > afterSeq).slice(0, limit);
    return { definitions: page, last_seq: page.at(-1)?.seq ?? afterSeq };
  }

  async fetchRevocationsAfter(afterSeq: number, limit: number): Promise<RevocationPage> {
    this.calls.after++;
    this.ensureReachable();
    const revocations = this.entries.filter((entry) => entry.seq > afterSeq).slice(0, limit);
    return { revocations, last_seq: revocations.at(-1)?.seq ?? Math.max(afterSeq, this.lastSeq) };
  }

  async revokeAccessToken(token: string): Promise<{ revoked: boolean }> {
    this.calls.revoke++;
    this.revokedUnder.push(correlationId());
    this.ensureReachable();
    const { jti, exp } = decodeJwt(token);
    if (typeof jti !== 'string') return { revoked: false };
    this.revoke('jti', jti, { expiresAt: exp });
    return { revoked: true };
  }

  /** Every quota consumption asked, in order. */
  readonly quotaCalls: QuotaConsumptionDto[] = [];
  /** The count of each window (`tenant meter start-ms`), as the control plane's database holds it. */
  readonly quotaCounts = new Map<string, number>();
  private readonly quotaKeys = new Map<string, number>();

  /**
   * The control plane's count (`POST /internal/v1/quotas/consume`) on the plans published here,
   * with the rules of the real one (QuotaLedger): a hard limit refuses past it, a key already
   * counted in the window answers its count again, units 0 read.
   */
  async consumeQuota(consumption: QuotaConsumptionDto): Promise<QuotaAnswerDto> {
    this.quotaCalls.push(consumption);
    this.ensureReachable();
    const now = new Date();
    const catalog = new PlanCatalog((kind, tenant, name) => {
      const latest = this.definitionChanges.findLast(
        (c) => c.kind === kind && c.tenant === tenant && c.name === name,
      );
      return latest?.document ? { version: latest.version, document: latest.document } : undefined;
    });
    const { quotas, zone } = catalog.entitlements(consumption.tenant, now);
    const quota = quotas[consumption.meter];
    if (quota === undefined) return { limited: false, granted: true, replayed: false };
    const window = quotaWindow(now, quota.period, zone);
    const counter = `${consumption.tenant} ${consumption.meter} ${window.start.getTime()}`;
    const key = consumption.idempotency_key && `${counter} ${consumption.idempotency_key}`;
    const usage = (used: number) => ({
      meter: consumption.meter,
      limit: quota.limit,
      used,
      remaining: Math.max(0, quota.limit - used),
      period_start: window.start.toISOString(),
      period_end: window.end.toISOString(),
      period: quota.period,
      enforcement: quota.enforcement,
    });
    const earlier = key ? this.quotaKeys.get(key) : undefined;
    if (earlier !== undefined) return { limited: true, granted: true, replayed: true, usage: usage(earlier) };
    const used = this.quotaCounts.get(counter) ?? 0;
    if (quota.enforcement === 'hard' && used + consumption.units > quota.limit) {
      return { limited: true, granted: false, replayed: false, usage: usage(used) };
    }
    this.quotaCounts.set(counter, used + consumption.units);
    if (key) this.quotaKeys.set(key, used + consumption.units);
    return { limited: true, granted: true, replayed: false, usage: usage(used + consumption.units) };
  }

  /** The audit routes are the real control plane's: their specs run end to end (test/e2e/audit). */
  async callAsPrincipal(): Promise<{ status: number; body: unknown }> {
    throw new SidecarError('control_plane_unavailable', 'the fake control plane has no audit log');
  }

  async *streamRevocations(
    afterSeq: number,
    signal: AbortSignal,
    onOpen?: () => void,
  ): AsyncGenerator<RevocationEntry> {
    this.calls.streams++;
    this.streamsOpenedAfter.push(afterSeq);
    this.ensureReachable();
    if (!this.streaming) throw new SidecarError('control_plane_unavailable', 'stream refused');
    onOpen?.();
    const queue = this.entries.filter((entry) => entry.seq > afterSeq);
    let wake: (() => void) | undefined;
    let broken = false;
    const subscriber = (entry: RevocationEntry) => {
      queue.push(entry);
      wake?.();
    };
    const breaker = () => {
      broken = true;
      wake?.();
    };
    const onAbort = () => wake?.();
    this.subscribers.add(subscriber);
    this.breakers.add(breaker);
    signal.addEventListener('abort', onAbort);
    try {
      while (!signal.aborted) {
        if (broken) throw new SidecarError('control_plane_unavailable', 'stream dropped');
        const next = queue.shift();
        if (next) yield next;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      this.subscribers.delete(subscriber);
      this.breakers.delete(breaker);
      signal.removeEventListener('abort', onAbort);
    }
  }

  private ensureReachable(): void {
    if (!this.reachable)
      throw new SidecarError('control_plane_unavailable', 'control plane unreachable (ECONNREFUSED)');
  }
}
