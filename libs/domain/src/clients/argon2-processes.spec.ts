import { getPriority } from 'node:os';
import { DomainError } from '../errors';
import { Argon2Processes } from './argon2-processes';

/** The pids of the pool's children, as the pool holds them. */
const pidsOf = (pool: Argon2Processes): number[] =>
  (pool as unknown as { workers: Array<{ child?: { pid: number } }> }).workers.flatMap(({ child }) =>
    child === undefined ? [] : [child.pid],
  );

const until = async (condition: () => boolean, timeoutMs = 5_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('Argon2Processes (argon2 in child processes at a lower priority)', () => {
  let pool: Argon2Processes;
  const warnings: string[] = [];

  beforeEach(() => {
    warnings.length = 0;
    pool = new Argon2Processes(2, 10, (warning) => warnings.push(warning));
  });

  afterEach(() => pool.close());

  it('hashes with argon2id and verifies: the right secret, not a wrong one, never a malformed hash', async () => {
    const hash = await pool.hash('s3cret');
    expect(hash).toMatch(/^\$argon2id\$/);
    await expect(pool.verify(hash, 's3cret')).resolves.toBe(true);
    await expect(pool.verify(hash, 'wrong')).resolves.toBe(false);
    await expect(pool.verify('not-a-hash', 's3cret')).resolves.toBe(false);
  });

  it('runs its children at the nice value it was given, below this process', async () => {
    await until(() => pidsOf(pool).length === 2);
    await pool.hash('wait for both to have started');
    await pool.hash('and the second');
    for (const pid of pidsOf(pool)) expect(getPriority(pid)).toBe(10);
    expect(getPriority()).toBeLessThan(10);
    expect(warnings).toEqual([]);
  });

  it('answers runs given at once, more than it has children, each with its own answer', async () => {
    const hash = await pool.hash('many');
    const answers = await Promise.all(
      ['many', 'x', 'many', 'y', 'many'].map((secret) => pool.verify(hash, secret)),
    );
    expect(answers).toEqual([true, false, true, false, true]);
  });

  it('fails the run of a child that dies as unavailable, and a new child takes the next run', async () => {
    const hash = await pool.hash('survivor');
    const [first] = pidsOf(pool);
    const running = pool.verify(hash, 'survivor');
    process.kill(first!, 'SIGKILL');
    // A run takes tens of milliseconds; the kill lands long before its answer.
    await expect(running).rejects.toEqual(expect.any(DomainError));
    await until(() => pidsOf(pool).length === 2 && !pidsOf(pool).includes(first!));
    await expect(pool.verify(hash, 'survivor')).resolves.toBe(true);
    expect(warnings.join('\n')).toMatch(/an argon2 process ended; another starts in \d+ ms/);
  });

  it('ends its children when closed, and refuses runs after', async () => {
    await pool.hash('started');
    const pids = pidsOf(pool);
    pool.close();
    await until(() =>
      pids.every((pid) => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      }),
    );
    await expect(pool.verify('x', 'y')).rejects.toEqual(expect.any(DomainError));
  });
});
