import type { QuotaAnswerDto, QuotaUsageDto } from '@platform/contract';
import type { DefinitionChange, RevocationEntry, RevocationKind } from '@platform/domain';
import type { JWK } from 'jose';

export interface RevocationPage {
  revocations: RevocationEntry[];
  /** Highest seq the answer covers (0 when none exist). */
  last_seq: number;
}

export interface JsonWebKeySet {
  keys: JWK[];
}

const KINDS: ReadonlySet<string> = new Set<RevocationKind>([
  'jti',
  'client',
  'subject',
  'grant',
  'secret',
  'signing_key',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value);

/** A well-formed entry, or undefined: what the control plane sends is checked, not trusted. */
export function parseRevocationEntry(value: unknown): RevocationEntry | undefined {
  if (!isRecord(value)) return undefined;
  const { seq, kind, value: subject, expires_at, created_at } = value;
  if (!isInteger(seq) || typeof kind !== 'string' || !KINDS.has(kind)) return undefined;
  if (typeof subject !== 'string' || subject === '' || !isInteger(expires_at) || !isInteger(created_at))
    return undefined;
  return { seq, kind: kind as RevocationKind, value: subject, expires_at, created_at };
}

export function parseRevocationPage(body: unknown): RevocationPage | undefined {
  if (!isRecord(body) || !Array.isArray(body.revocations) || !isInteger(body.last_seq)) return undefined;
  const revocations: RevocationEntry[] = [];
  for (const item of body.revocations) {
    const entry = parseRevocationEntry(item);
    if (entry) revocations.push(entry);
  }
  return { revocations, last_seq: body.last_seq };
}

export function parseJsonWebKeySet(body: unknown): JsonWebKeySet | undefined {
  if (!isRecord(body) || !Array.isArray(body.keys)) return undefined;
  return { keys: body.keys.filter(isRecord) as JWK[] };
}

export interface DefinitionPage {
  definitions: DefinitionChange[];
  last_seq: number;
}

/** A well-formed page, or undefined; a malformed change in it is skipped. */
export function parseDefinitionPage(body: unknown): DefinitionPage | undefined {
  if (!isRecord(body) || !Array.isArray(body.definitions) || !isInteger(body.last_seq)) return undefined;
  const definitions = body.definitions.map(parseDefinitionChange).filter((c) => c !== undefined);
  return { definitions, last_seq: body.last_seq };
}

/** One well-formed change (of a page, or an event of the stream), or undefined. */
export function parseDefinitionChange(item: unknown): DefinitionChange | undefined {
  if (!isRecord(item)) return undefined;
  const { seq, kind, tenant, name, version, document } = item;
  if (!isInteger(seq) || !isInteger(version)) return undefined;
  if (typeof kind !== 'string' || typeof tenant !== 'string' || typeof name !== 'string') return undefined;
  if (document !== null && !isRecord(document)) return undefined;
  return { seq, kind, tenant, name, version, document };
}

const isTime = (value: unknown): value is string =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value));

/** The control plane's answer to a quota consumption, checked: undefined when malformed. */
/** `{answers}` with one well-formed answer for each of `count` consumptions, else undefined. */
export function parseQuotaAnswers(body: unknown, count: number): QuotaAnswerDto[] | undefined {
  if (!isRecord(body) || !Array.isArray(body.answers) || body.answers.length !== count) return undefined;
  const answers = body.answers.map(parseQuotaAnswer);
  return answers.every((answer) => answer !== undefined) ? (answers as QuotaAnswerDto[]) : undefined;
}

function parseQuotaAnswer(body: unknown): QuotaAnswerDto | undefined {
  if (!isRecord(body)) return undefined;
  const { limited, granted, replayed, usage } = body;
  if (typeof limited !== 'boolean' || typeof granted !== 'boolean' || typeof replayed !== 'boolean') {
    return undefined;
  }
  if (usage === undefined || usage === null) return limited ? undefined : { limited, granted, replayed };
  if (!isRecord(usage)) return undefined;
  const { meter, limit, used, remaining, period_start, period_end, period, enforcement } = usage;
  if (typeof meter !== 'string' || !isInteger(limit) || !isInteger(used) || !isInteger(remaining))
    return undefined;
  if (!isTime(period_start) || !isTime(period_end)) return undefined;
  const read: QuotaUsageDto = { meter, limit, used, remaining, period_start, period_end };
  if (typeof period === 'string') read.period = period;
  if (typeof enforcement === 'string') read.enforcement = enforcement;
  return { limited, granted, replayed, usage: read };
}
