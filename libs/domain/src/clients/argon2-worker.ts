import { argon2idHasher } from './secret-hasher';
import type { Argon2Answer, Argon2Job } from './argon2-processes';

/**
 * A child process of `Argon2Processes`: one argon2 run at a time, at the lower scheduling
 * priority its parent gave it. It ends when its parent does (the IPC channel closes).
 */
process.on('disconnect', () => process.exit(0));
process.on('message', (job: Argon2Job) => {
  const run =
    job.op === 'hash' ? argon2idHasher.hash(job.secret) : argon2idHasher.verify(job.hash, job.secret);
  run.then(
    (value): void => void process.send?.({ id: job.id, value } satisfies Argon2Answer),
    (error: unknown): void =>
      void process.send?.({
        id: job.id,
        failed: error instanceof Error ? error.name : 'Error',
      } satisfies Argon2Answer),
  );
});
