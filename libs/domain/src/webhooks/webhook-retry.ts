/**
 * When a failed delivery is tried again: Svix's schedule, 5 seconds after the first attempt,
 * then 5 minutes, 30 minutes, 2, 5, 10 and 10 hours (eight attempts over about 27 hours). Each
 * wait is stretched by up to 20 % at random, so deliveries that failed together (a receiver
 * outage) do not all come back in the same second.
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/**
 * The wait after `attempts` failed attempts, or null when that was the last one (the delivery
 * is dead-lettered).
 */
export function webhookRetryDelay(attempts: number, random: () => number = Math.random): number | null {
  const nominal = WEBHOOK_RETRY_DELAYS_MS[attempts - 1];
  return nominal === undefined ? null : Math.round(nominal * (1 + 0.2 * random()));
}
