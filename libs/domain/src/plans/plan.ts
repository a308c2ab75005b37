import { validationFailed } from '../errors';

/** A feature's value: on/off, an enum value, or a numeric limit such as seats. */
export type EntitlementValue = boolean | string | number;

export const QUOTA_PERIODS = ['hour', 'day', 'month'] as const;
export type QuotaPeriod = (typeof QUOTA_PERIODS)[number];

/** A limit on a meter per period: `hard` refuses past it, `soft` counts on and notifies. */
export interface Quota {
  limit: number;
  period: QuotaPeriod;
  enforcement: 'hard' | 'soft';
  /** Percentages of the limit whose crossing is audited (and so a webhook event), once a period. */
  thresholds: number[];
}

/** What a plan gives a tenant (docs/plans.md). */
export interface Plan {
  description?: string;
  features: Record<string, EntitlementValue>;
  quotas: Record<string, Quota>;
}

export const DEFAULT_THRESHOLDS = [80, 100];
/** Feature and meter names: lower case, as scopes and audit actions are. */
const KEY = /^[a-z][a-z0-9_.-]{0,63}$/;
const MAX_ENTRIES = 200;
const MAX_STRING = 256;

/** A plan document checked as stored; what is wrong is `validation_failed` naming where. */
export function readPlan(document: unknown): Plan {
  const plan = objectAt(document, '/');
  for (const key of Object.keys(plan)) {
    if (!['description', 'features', 'quotas'].includes(key)) throw validationFailed(`/${key}: not a plan member`);
  }
  const description = plan.description;
  if (description !== undefined && (typeof description !== 'string' || description.length > MAX_STRING)) {
    throw validationFailed(`/description: a string of at most ${MAX_STRING} characters`);
  }
  return {
    ...(description !== undefined && { description: description as string }),
    features: readFeatures(plan.features ?? {}, '/features'),
    quotas: readQuotas(plan.quotas ?? {}, '/quotas'),
  };
}

export function readFeatures(value: unknown, at: string): Record<string, EntitlementValue> {
  return entriesAt(value, at, (feature, path) => {
    if (typeof feature === 'boolean') return feature;
    if (typeof feature === 'string' && feature.length > 0 && feature.length <= MAX_STRING) return feature;
    if (typeof feature === 'number' && Number.isSafeInteger(feature) && feature >= 0) return feature;
    throw validationFailed(`${path}: true/false, a non-empty string or a whole number of at least 0`);
  });
}

export function readQuotas(value: unknown, at: string): Record<string, Quota> {
  return entriesAt(value, at, (quota, path) => readQuota(quota, path));
}

function readQuota(value: unknown, at: string): Quota {
  const quota = objectAt(value, at);
  for (const key of Object.keys(quota)) {
    if (!['limit', 'period', 'enforcement', 'thresholds'].includes(key)) {
      throw validationFailed(`${at}/${key}: not a quota member`);
    }
  }
  const { limit, period, enforcement = 'hard', thresholds = DEFAULT_THRESHOLDS } = quota;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0) {
    throw validationFailed(`${at}/limit: a whole number of at least 0`);
  }
  if (!QUOTA_PERIODS.includes(period as QuotaPeriod)) {
    throw validationFailed(`${at}/period: one of ${QUOTA_PERIODS.join(', ')}`);
  }
  if (enforcement !== 'hard' && enforcement !== 'soft') {
    throw validationFailed(`${at}/enforcement: hard or soft`);
  }
  if (
    !Array.isArray(thresholds) ||
    thresholds.length > 10 ||
    thresholds.some((t) => typeof t !== 'number' || !Number.isInteger(t) || t < 1 || t > 1000)
  ) {
    throw validationFailed(`${at}/thresholds: at most 10 whole percentages from 1 to 1000`);
  }
  return {
    limit,
    period: period as QuotaPeriod,
    enforcement,
    thresholds: [...new Set(thresholds as number[])].sort((a, b) => a - b),
  };
}

export function objectAt(value: unknown, at: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw validationFailed(`${at}: an object`);
  }
  return value as Record<string, unknown>;
}

function entriesAt<T>(value: unknown, at: string, read: (entry: unknown, path: string) => T): Record<string, T> {
  const entries = Object.entries(objectAt(value, at));
  if (entries.length > MAX_ENTRIES) throw validationFailed(`${at}: at most ${MAX_ENTRIES} entries`);
  const read_: Record<string, T> = {};
  for (const [key, entry] of entries) {
    if (!KEY.test(key)) throw validationFailed(`${at}/${key}: names are 1 to 64 of a-z 0-9 _ . -, from a letter`);
    read_[key] = read(entry, `${at}/${key}`);
  }
  return read_;
}

/** The name rule of features and meters, for the RPCs and routes that take one. */
export const isEntryName = (name: string): boolean => KEY.test(name);
