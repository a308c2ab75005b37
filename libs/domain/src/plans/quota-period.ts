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
  const key = `${period} ${zone}`;
  const time = at.getTime();
  let window = lastWindows.get(key);
  if (window === undefined || time < window.start.getTime() || time >= window.end.getTime()) {
    const start = DateTime.fromJSDate(at, { zone }).startOf(period);
    window = { start: start.toJSDate(), end: start.plus({ [`${period}s`]: 1 }).toJSDate() };
    lastWindows.set(key, window);
  }
  return { start: new Date(window.start), end: new Date(window.end) };
}

/**
 * The last window of each period and zone, taken again while the time is in it: the calendar
 * work (luxon, ~15-20 µs) is once a window, not once a consumption. As many entries as the
 * periods and zones the tenants use.
 */
const lastWindows = new Map<string, QuotaWindow>();
