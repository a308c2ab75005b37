import { DateTime } from 'luxon';
import type { QuotaPeriod } from './plan';

/** One counting window of a quota: [start, end). */
export interface QuotaWindow {
  start: Date;
  end: Date;
}

/**
 * The window holding `at`: the hour, day or calendar month in the tenant's zone (so a tenant in
 * Europe/Paris has its month start at its own midnight; a day across a DST change is 23 or 25
 * hours, as the zone's calendar says).
 */
export function quotaWindow(at: Date, period: QuotaPeriod, zone: string): QuotaWindow {
  const start = DateTime.fromJSDate(at, { zone }).startOf(period);
  return { start: start.toJSDate(), end: start.plus({ [`${period}s`]: 1 }).toJSDate() };
}
