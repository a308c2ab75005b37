import { type ChildProcess, fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { Backoff } from '../backoff';
import { DomainError } from '../errors';
import type { SecretHasher } from './secret-hasher';

export type Argon2Job =
  { id: number; op: 'hash'; secret: string } | { id: number; op: 'verify'; hash: string; secret: string };
export type Argon2Answer = { id: number; value: string | boolean } | { id: number; failed: string };

/**
 * The compiled worker, found from here whether this module runs compiled (dist/clients) or from
 * its source under the test runner (src/clients): the package's build is the one copy.
 */
const WORKER = join(__dirname, '..', '..', 'dist', 'clients', 'argon2-worker.js');

interface Job {
  request: Argon2Job;
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
}

interface Worker {
  /** None while a replacement for a child that ended is due. */
  child?: ChildProcess;
  job?: Job;
}

/**
 * argon2 (64 MiB, t=3, p=4) in `size` child processes at a lower scheduling priority (`nice`,
 * 0-19), each one run at a time. In the control plane's own process a flood of wrong secrets took
 * the CPU the token path needs on a small machine (four lane threads per run, at the same
 * priority as the event loop); here the kernel gives the event loops first claim and argon2 the
 * rest, and the 64 MiB of each run is the children's, not the control plane's heap. A child that
 * dies fails its run as unavailable (503) and is replaced. Bounded above by `boundedArgon2`.
 */
export class Argon2Processes implements SecretHasher {
  private readonly workers: Worker[] = [];
  private readonly waiting: Job[] = [];
  /** Replacements of children that keep ending (a broken install) slow down, to 5 s apart. */
  private readonly respawns = new Backoff(100, 5_000);
  private nextId = 0;
  private closed = false;

  constructor(
    size: number,
    private readonly nice: number,
    private readonly onWarning: (message: string) => void = () => {},
  ) {
    for (let i = 0; i < size; i += 1) {
      const worker: Worker = {};
      this.workers.push(worker);
      this.spawn(worker);
    }
  }

  hash(secret: string): Promise<string> {
    return this.run({ id: this.nextId++, op: 'hash', secret }) as Promise<string>;
  }

  verify(hash: string, secret: string): Promise<boolean> {
    return this.run({ id: this.nextId++, op: 'verify', hash, secret }) as Promise<boolean>;
  }

  /** Ends the children; runs under way fail as unavailable. */
  close(): void {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(unavailable());
    for (const worker of this.workers) worker.child?.kill();
  }

  private run(request: Argon2Job): Promise<string | boolean> {
    if (this.closed) return Promise.reject(unavailable());
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (const worker of this.workers) {
      if (worker.child === undefined || worker.job !== undefined || this.waiting.length === 0) continue;
      worker.job = this.waiting.shift()!;
      worker.child.send(worker.job.request);
    }
  }

  private spawn(worker: Worker): void {
    const child = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
    worker.child = child;
    // Neither the child nor its channel keeps this process alive: a shutdown does not wait for them.
    child.unref();
    child.channel?.unref();
    child.once('spawn', () => {
      try {
        setPriority(child.pid!, this.nice);
      } catch (error) {
        this.onWarning(`argon2 process left at normal priority: ${(error as Error).message}`);
      }
    });
    child.on('message', (answer: Argon2Answer) => {
      const job = worker.job;
      if (job === undefined || job.request.id !== answer.id) return;
      worker.job = undefined;
      this.respawns.reset();
      if ('failed' in answer) job.reject(new Error(`argon2 failed in its process: ${answer.failed}`));
      else job.resolve(answer.value);
      this.dispatch();
    });
    child.once('exit', () => {
      worker.job?.reject(unavailable());
      worker.job = undefined;
      worker.child = undefined;
      if (this.closed) return;
      const delay = this.respawns.next();
      this.onWarning(`an argon2 process ended; another starts in ${delay} ms`);
      setTimeout(() => {
        if (this.closed) return;
        this.spawn(worker);
        this.dispatch();
      }, delay).unref();
    });
  }
}

const unavailable = () => new DomainError('unavailable', 'Client authentication is unavailable; retry');
