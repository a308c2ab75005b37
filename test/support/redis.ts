import { execFileSync } from 'node:child_process';

/** The Redis the suites use (CI machines run one on 127.0.0.1:6379). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Synchronous, because jest registers tests synchronously: PING answered with PONG. */
function redisReachable(): boolean {
  const probe = `
    const { hostname, port } = new URL(process.env.PROBE_URL);
    const socket = require("node:net").connect(Number(port || 6379), hostname);
    socket.setTimeout(3000, () => process.exit(1));
    socket.on('error', () => process.exit(1));
    socket.on('connect', () => socket.write('PING\\r\\n'));
    socket.on('data', (data) => process.exit(String(data).startsWith('+PONG') ? 0 : 1));`;
  try {
    execFileSync(process.execPath, ['-e', probe], {
      env: { ...process.env, PROBE_URL: TEST_REDIS_URL },
      stdio: 'ignore',
      timeout: 10_000,
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a Redis suite runs: yes when Redis answers; under CI=true an unreachable Redis throws
 * (CI must run it); elsewhere a loud warning, and the caller registers nothing, so no skipped
 * test is ever counted as passed.
 */
export function redisSuiteEnabled(what: string): boolean {
  if (redisReachable()) return true;
  const where = new URL(TEST_REDIS_URL).host;
  if (process.env.CI === 'true') throw new Error(`Redis at ${where} is unreachable; CI must run ${what}`);
  console.warn(
    `\n!!! Redis at ${where} is unreachable: ${what} is SKIPPED.\n!!! Set TEST_REDIS_URL or start Redis to run it.\n`,
  );
  return false;
}
