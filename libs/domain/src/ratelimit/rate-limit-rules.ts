import { validationFailed } from '../errors';

/**
 * Rate limit rules of one domain, in the shape of Envoy's reference rate limit service
 * (github.com/envoyproxy/ratelimit): nested descriptors of `key` (and optionally `value`), each
 * with an optional `rate_limit`. A request descriptor (a list of key/value entries) walks the
 * tree; the deepest matched level's limit applies.
 */
export interface RateLimitRules {
  descriptors: DescriptorRule[];
}

export interface DescriptorRule {
  key: string;
  /** Absent: any value of `key`, each value counted on its own. */
  value?: string;
  rate_limit?: RateLimitSpec;
  descriptors?: DescriptorRule[];
}

export const RATE_LIMIT_UNITS = { second: 1, minute: 60, hour: 3600, day: 86_400 } as const;
export type RateLimitUnit = keyof typeof RATE_LIMIT_UNITS;

export interface RateLimitSpec {
  unit: RateLimitUnit;
  requests_per_unit: number;
  /** Extra requests a window may take above `requests_per_unit` (its quota is the sum). */
  burst?: number;
}

export interface DescriptorEntry {
  key: string;
  value: string;
}

/** The limit a request descriptor falls under, and the counter it counts in. */
export interface MatchedLimit {
  limit: RateLimitSpec;
  /** `key=value` of every entry walked, so each distinct value of a key-only rule counts apart. */
  counterKey: string;
}

const LIMITS = { depth: 8, rules: 1000, text: 256, requestsPerUnit: 1_000_000_000 };

/** The document, checked: what is wrong with it is `validation_failed`, with the path to it. */
export function readRateLimitRules(document: unknown): RateLimitRules {
  const count = { rules: 0 };
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw validationFailed('the rules must be an object with descriptors');
  }
  return {
    descriptors: readLevel((document as { descriptors?: unknown }).descriptors, 'descriptors', 1, count),
  };
}

function readLevel(value: unknown, path: string, depth: number, count: { rules: number }): DescriptorRule[] {
  if (!Array.isArray(value)) throw validationFailed(`${path} must be an array`);
  if (depth > LIMITS.depth) throw validationFailed(`${path}: descriptors nest at most ${LIMITS.depth} deep`);
  const seen = new Set<string>();
  return value.map((item: unknown, i) => {
    const at = `${path}[${i}]`;
    if (++count.rules > LIMITS.rules) throw validationFailed(`at most ${LIMITS.rules} descriptor rules`);
    if (typeof item !== 'object' || item === null) throw validationFailed(`${at} must be an object`);
    const rule = item as Record<string, unknown>;
    const key = text(rule.key, `${at}.key`);
    const value = rule.value === undefined ? undefined : text(rule.value, `${at}.value`);
    const identity = `${key}\u0000${value ?? ''}\u0000${value === undefined}`;
    if (seen.has(identity))
      throw validationFailed(`${at}: ${key}${value === undefined ? '' : `=${value}`} is there twice`);
    seen.add(identity);
    return {
      key,
      ...(value !== undefined && { value }),
      ...(rule.rate_limit !== undefined && { rate_limit: readSpec(rule.rate_limit, `${at}.rate_limit`) }),
      ...(rule.descriptors !== undefined && {
        descriptors: readLevel(rule.descriptors, `${at}.descriptors`, depth + 1, count),
      }),
    };
  });
}

function readSpec(value: unknown, path: string): RateLimitSpec {
  const spec = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof spec.unit !== 'string' || !(spec.unit in RATE_LIMIT_UNITS)) {
    throw validationFailed(`${path}.unit must be one of ${Object.keys(RATE_LIMIT_UNITS).join(', ')}`);
  }
  const rpu = spec.requests_per_unit;
  if (!Number.isInteger(rpu) || (rpu as number) < 1 || (rpu as number) > LIMITS.requestsPerUnit) {
    throw validationFailed(
      `${path}.requests_per_unit must be a whole number from 1 to ${LIMITS.requestsPerUnit}`,
    );
  }
  const burst = spec.burst;
  if (
    burst !== undefined &&
    (!Number.isInteger(burst) || (burst as number) < 0 || (burst as number) > LIMITS.requestsPerUnit)
  ) {
    throw validationFailed(`${path}.burst must be a whole number, 0 or more`);
  }
  return {
    unit: spec.unit as RateLimitUnit,
    requests_per_unit: rpu as number,
    ...(burst !== undefined && { burst: burst as number }),
  };
}

function text(value: unknown, path: string): string {
  if (typeof value !== 'string' || value === '' || value.length > LIMITS.text) {
    throw validationFailed(`${path} must be 1 to ${LIMITS.text} characters`);
  }
  return value;
}

/**
 * Envoy's matching: each entry in turn picks, at the current level, the rule of its key and value,
 * else the rule of its key alone; no rule ends the walk without a limit. The last rule walked
 * must carry a limit for the descriptor to be limited.
 */
export function matchDescriptor(
  rules: RateLimitRules,
  entries: readonly DescriptorEntry[],
): MatchedLimit | undefined {
  let level: DescriptorRule[] | undefined = rules.descriptors;
  let matched: DescriptorRule | undefined;
  const path: string[] = [];
  for (const entry of entries) {
    matched =
      level?.find((rule) => rule.key === entry.key && rule.value === entry.value) ??
      level?.find((rule) => rule.key === entry.key && rule.value === undefined);
    if (matched === undefined) return undefined;
    path.push(`${entry.key}=${entry.value}`);
    level = matched.descriptors;
  }
  return matched?.rate_limit && { limit: matched.rate_limit, counterKey: path.join('|') };
}
