import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithPrerequisite } from './prerequisite';

const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
/** libfaketime reads the offset file again at most this often (seconds). */
const REREAD_SECONDS = 1;
/** How long the processes may take to read a new offset. */
const SETTLE_TIMEOUT_MS = 15_000;

/** `describe` for suites that move the platform's clock (Debian's libfaketime, scripts/ci-faketime.sh). */
export function describeWithManualClock(name: string, suite: () => void): void {
  describeWithPrerequisite(
    name,
    {
      present: existsSync(LIBFAKETIME),
      needs: `libfaketime at ${LIBFAKETIME}`,
      install: 'apt-get install faketime',
      ciScript: 'scripts/ci-faketime.sh',
      kind: 'MANUAL CLOCK',
    },
    suite,
  );
}

/**
 * The platform's processes on a clock the test sets: libfaketime preloaded into each, shifting
 * the wall clock (never the monotonic one, so timers keep their pace) by the offset in a file.
 * `env` goes to startPlatform; `setTo(instant)` moves every process to that instant, from which
 * time runs on as usual; the test's own clock stays the real one.
 */
export class ManualPlatformClock {
  private readonly dir = mkdtempSync(join(tmpdir(), 'manual-clock-'));
  private readonly file = join(this.dir, 'offset');

  constructor() {
    writeFileSync(this.file, '+0');
  }

  get env(): Record<string, string> {
    return {
      LD_PRELOAD: LIBFAKETIME,
      FAKETIME_TIMESTAMP_FILE: this.file,
      FAKETIME_CACHE_DURATION: String(REREAD_SECONDS),
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
    };
  }

  /**
   * Moves the processes' clocks to `instant`, from which time runs on. Resolves once each of
   * `watched` (URLs of the processes' HTTP servers) answers with a `Date` header at or past it:
   * libfaketime reads the file again within a second or two, each process on its own.
   */
  async setTo(instant: Date, watched: string[]): Promise<void> {
    const seconds = Math.round((instant.getTime() - Date.now()) / 1000);
    writeFileSync(this.file, seconds < 0 ? String(seconds) : `+${seconds}`);
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    for (const url of watched) {
      // The header has whole seconds: a second of slack.
      while (Date.parse((await fetch(url)).headers.get('date') ?? '') < instant.getTime() - 1_000) {
        if (Date.now() > deadline)
          throw new Error(`${url} did not take the clock to ${instant.toISOString()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
