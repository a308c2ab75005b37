import type { Backoff } from './backoff';

/** Where a loop reports a failed run (Nest's `Logger` is one). */
export interface LoopLogger {
  warn(message: string): void;
}

export interface BackgroundLoopOptions {
  /** What the log calls a run: `key set refresh` warns "key set refresh failed: ...". */
  what: string;
  /** One run. A rejection is logged and the loop goes on. */
  run: () => Promise<unknown>;
  /** The wait from the end of one run to the start of the next. */
  everyMs: number;
  /** The first run starts within `start`, rather than `everyMs` later. */
  immediate?: boolean;
  /**
   * When given, a failed run is tried again after `backoff.next()` (the warning says when) rather
   * than `everyMs` later; a run that succeeds resets it.
   */
  backoff?: Backoff;
  logger: LoopLogger;
  /**
   * What the warning says of the error: its message, unless given (the control plane logs names
   * only: a query error's message may hold a DSN).
   */
  describe?: (error: Error) => string;
}

/**
 * A process's periodic chore: one run at a time (the next is timed from the end of the last, so
 * a slow run is never overlapped), failures logged and retried, and a stop that waits for the
 * run under way. Its timer never keeps the process alive.
 */
export class BackgroundLoop {
  private state: 'idle' | 'started' | 'stopped' = 'idle';
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly options: BackgroundLoopOptions) {}

  /** Starts the loop, once: a loop stopped (even before it started) stays stopped. */
  start(): void {
    if (this.state !== 'idle') return;
    this.state = 'started';
    if (this.options.immediate) this.runNow();
    else this.schedule(this.options.everyMs);
  }

  /** No run starts after this call; resolves once the run under way, if any, has ended. */
  async stop(): Promise<void> {
    this.state = 'stopped';
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.state !== 'started') return;
    this.timer = setTimeout(() => this.runNow(), ms);
    this.timer.unref();
  }

  private runNow(): void {
    this.running = this.runOnce().finally(() => (this.running = undefined));
  }

  private async runOnce(): Promise<void> {
    const { what, run, everyMs, backoff, logger, describe = (error) => error.message } = this.options;
    let delay = everyMs;
    try {
      await run();
      backoff?.reset();
    } catch (error) {
      const detail = describe(error as Error);
      if (backoff) {
        delay = backoff.next();
        logger.warn(`${what} failed, retrying in ${delay} ms: ${detail}`);
      } else {
        logger.warn(`${what} failed: ${detail}`);
      }
    }
    this.schedule(delay);
  }
}
