import { setTimeout as sleep } from 'node:timers/promises';
import type { Stores, Transactor } from '@platform/domain';

/** Commit delays of the writers, each starting 20 ms after the one before. */
const COMMIT_DELAYS_MS = [150, 0, 0, 60, 0, 0];

/**
 * A feed's reader following it by seq while writers each hold their transaction open a while
 * after drawing a seq (a slow commit), the later ones starting while an earlier one still holds
 * its own. Answers the seqs written and those the reader saw, in its order: a feed that lets a
 * seq become visible before a smaller one makes the reader step over the smaller one.
 */
export async function followWhileWriting(
  transactor: Transactor,
  write: (stores: Stores) => Promise<number>,
  readAfter: (seq: number) => Promise<Array<{ seq: number }>>,
): Promise<{ written: number[]; seen: number[] }> {
  const written: number[] = [];
  const seen: number[] = [];
  let writing = true;
  const follow = (async () => {
    let cursor = 0;
    for (;;) {
      const last = !writing; // every writer has committed: this read must find the rest
      for (const { seq } of await readAfter(cursor)) {
        seen.push(seq);
        cursor = seq;
      }
      if (last) return;
      await sleep(5);
    }
  })();
  await Promise.all(
    COMMIT_DELAYS_MS.map(async (commitDelayMs, i) => {
      await sleep(i * 20);
      await transactor.inTransaction(async (stores) => {
        written.push(await write(stores));
        await sleep(commitDelayMs);
      });
    }),
  );
  writing = false;
  await follow;
  return { written: written.sort((a, b) => a - b), seen };
}
