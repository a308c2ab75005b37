import { Redis } from 'ioredis';
import { redisReady } from './redis-ready';

/** One consumption of a tenant's meter in one window, as Redis counts it (docs/plans.md). */
export interface QuotaCount {
  tenant: string;
  meter: string;
  units: number;
  idempotencyKey?: string;
  limit: number;
  hard: boolean;
  thresholds: readonly number[];
  windowStart: Date;
  windowEnd: Date;
}

export interface QuotaCountAnswer {
  granted: boolean;
  used: number;
  /** A retry whose key was counted already: the count it got then, nothing counted again. */
  replayed: boolean;
}

/** One granted consumption in the journal the control plane drains into its durable count. */
export interface JournalEntry {
  id: string;
  tenant: string;
  meter: string;
  units: number;
  limit: number;
  thresholds: number[];
  windowStart: Date;
  windowEnd: Date;
  /** The consumer's idempotency key, else the entry's id: what the durable count dedupes by. */
  idempotencyKey: string;
  /** When Redis counted it (the entry id's time). */
  at: Date;
}

const GROUP = 'platform-control-plane';
/** Counters and keys outlive their window by a day: late retries still find their answer. */
const GRACE_MS = 86_400_000;

/**
 * Check, count, remember the key and journal the grant, atomically (one script). A counter that
 * does not exist is seeded with the durable count first (ARGV[5]; -1: not known yet, the caller
 * asks the control plane and calls again), so a Redis that lost its data starts from the
 * control plane's count, not from 0.
 */
const CONSUME = `
local used = redis.call('GET', KEYS[1])
if not used then
  if tonumber(ARGV[5]) < 0 then return {-1, 0} end
  redis.call('SET', KEYS[1], ARGV[5], 'PX', ARGV[4], 'NX')
  used = redis.call('GET', KEYS[1])
end
used = tonumber(used)
if ARGV[6] ~= '' then
  local earlier = redis.call('GET', KEYS[2])
  if earlier then return {2, tonumber(earlier)} end
end
local units = tonumber(ARGV[1])
if ARGV[3] == '1' and used + units > tonumber(ARGV[2]) then return {0, used} end
if units == 0 then return {1, used} end
used = redis.call('INCRBY', KEYS[1], units)
if ARGV[6] ~= '' then redis.call('SET', KEYS[2], used, 'PX', ARGV[4]) end
redis.call('XADD', KEYS[3], '*', 't', ARGV[7], 'm', ARGV[8], 's', ARGV[9], 'e', ARGV[10], 'u', units, 'l', ARGV[2], 'th', ARGV[11], 'k', ARGV[6])
return {1, used}
`;

/**
 * Quota counts in Redis, shared by every sidecar and control plane (docs/plans.md, "Counting"):
 * exact (one script per consumption on one Redis) and journaled, so the control plane makes
 * every grant durable. Unlike the rate limits there is no memory fallback: a count that each
 * process kept apart would grant more than the limit, so a Redis failure is an error the caller
 * reports (the sidecar answers UNAVAILABLE).
 */
export class RedisQuotaCounter {
  private readonly redis: Redis;
  private readonly journal: string;

  /** `prefix` namespaces every key: one per deployment sharing a Redis (its journal is its own). */
  constructor(
    url: string,
    private readonly prefix = 'platform',
  ) {
    this.journal = `${prefix}:quota:journal`;
    // A short disconnect timeout: a closed counter keeps no timer alive (tests, shutdown). The
    // consumptions of one tick go out as one pipeline (one write), as the rate limits' do.
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      disconnectTimeout: 100,
      enableAutoPipelining: true,
    });
    this.redis.on('error', () => undefined); // each command reports its own failure
    this.redis.defineCommand('platformQuotaConsume', { numberOfKeys: 3, lua: CONSUME });
  }

  /**
   * Counts `count`; `durableUsed` answers the control plane's count of the window, asked only when
   * Redis holds none (the window's first use, or a Redis that lost its data).
   */
  async consume(count: QuotaCount, durableUsed: () => Promise<number>): Promise<QuotaCountAnswer> {
    let [verdict, used] = await this.run(count, -1);
    if (verdict === -1) [verdict, used] = await this.run(count, await durableUsed());
    return { granted: verdict !== 0, used, replayed: verdict === 2 };
  }

  /** Reads the journal for the control plane: new entries, or `pending` ones left unacknowledged. */
  async readJournal(consumer: string, count: number, blockMs: number): Promise<JournalEntry[]> {
    try {
      return await this.readJournalOnce(consumer, count, blockMs);
    } catch (error) {
      // A Redis restarted without its data has lost the group with the stream: made again next time.
      if (String((error as Error).message).includes('NOGROUP')) this.groupReady = false;
      throw error;
    }
  }

  private async readJournalOnce(consumer: string, count: number, blockMs: number): Promise<JournalEntry[]> {
    await this.ensureGroup();
    const mine = await this.redis.xreadgroup(
      'GROUP',
      GROUP,
      consumer,
      'COUNT',
      count,
      'STREAMS',
      this.journal,
      '0',
    );
    const own = entriesOf(mine);
    if (own.length > 0) return own;
    // Entries another control plane read and never acknowledged (it died): taken over after 5 s.
    const [, claimed] = (await this.redis.xautoclaim(
      this.journal,
      GROUP,
      consumer,
      5_000,
      '0',
      'COUNT',
      count,
    )) as [string, Array<[string, string[]]>];
    if (claimed.length > 0) return claimed.filter(([, fields]) => fields !== null).map(toEntry);
    const fresh = await this.redis.xreadgroup(
      'GROUP',
      GROUP,
      consumer,
      'COUNT',
      count,
      'BLOCK',
      blockMs,
      'STREAMS',
      this.journal,
      '>',
    );
    return entriesOf(fresh);
  }

  /** The entries are durable in the control plane: acknowledged and dropped from the stream. */
  async acknowledge(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.redis
      .multi()
      .xack(this.journal, GROUP, ...ids)
      .xdel(this.journal, ...ids)
      .exec();
  }

  /** Whether Redis answers, waiting up to `timeoutMs` (a process starting beside it). */
  ready(timeoutMs = 2_000): Promise<boolean> {
    return redisReady(this.redis, timeoutMs);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  private async run(count: QuotaCount, seed: number): Promise<[number, number]> {
    const window = count.windowStart.getTime();
    const counter = `${this.prefix}:quota:${count.tenant}:${count.meter}:${window}`;
    const key = count.idempotencyKey ?? '';
    const ttl = Math.max(1, count.windowEnd.getTime() + GRACE_MS - Date.now());
    const run = (this.redis as unknown as Record<string, (...args: unknown[]) => Promise<[number, number]>>)
      .platformQuotaConsume;
    return run.call(
      this.redis,
      counter,
      `${counter}:key:${key}`,
      this.journal,
      count.units,
      count.limit,
      count.hard ? '1' : '0',
      ttl,
      seed,
      key,
      count.tenant,
      count.meter,
      window,
      count.windowEnd.getTime(),
      count.thresholds.join(','),
    );
  }

  private groupReady = false;

  private async ensureGroup(): Promise<void> {
    if (this.groupReady) return;
    try {
      await this.redis.xgroup('CREATE', this.journal, GROUP, '0', 'MKSTREAM');
    } catch (error) {
      if (!String((error as Error).message).includes('BUSYGROUP')) throw error;
    }
    this.groupReady = true;
  }
}

type StreamReply = Array<[string, Array<[string, string[]]>]> | null;

function entriesOf(reply: unknown): JournalEntry[] {
  const streams = reply as StreamReply;
  return (streams?.[0]?.[1] ?? []).map(toEntry);
}

function toEntry([id, fields]: [string, string[]]): JournalEntry {
  const field: Record<string, string> = {};
  for (let i = 0; i < fields.length; i += 2) field[fields[i]] = fields[i + 1];
  return {
    id,
    tenant: field.t,
    meter: field.m,
    units: Number(field.u),
    limit: Number(field.l),
    thresholds: field.th === '' ? [] : field.th.split(',').map(Number),
    windowStart: new Date(Number(field.s)),
    windowEnd: new Date(Number(field.e)),
    idempotencyKey: field.k === '' ? `journal:${id}` : field.k,
    at: new Date(Number(id.split('-')[0])),
  };
}
