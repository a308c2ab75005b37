import { GroupCommit } from './group-commit';

/** A write that records what it was given and answers when the test releases it. */
function heldWrites() {
  const writes: Array<{ items: string[]; release: (error?: Error) => void }> = [];
  const write = (items: string[]) =>
    new Promise<string[]>((resolve, reject) => {
      writes.push({
        items,
        release: (error) => (error ? reject(error) : resolve(items.map((item) => `${item}!`))),
      });
    });
  return { writes, write };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe(GroupCommit.name, () => {
  it('writes what was submitted in one turn together, answering each caller its own result', async () => {
    const { writes, write } = heldWrites();
    const group = new GroupCommit(write);
    const answers = Promise.all(['a', 'b', 'c'].map((item) => group.submit(item)));
    await nextTurn();
    expect(writes.map((w) => w.items)).toEqual([['a', 'b', 'c']]);
    writes[0].release();
    await expect(answers).resolves.toEqual(['a!', 'b!', 'c!']);
  });

  it('gathers what arrives while a write is out for the next one', async () => {
    const { writes, write } = heldWrites();
    const group = new GroupCommit(write);
    const first = group.submit('a');
    await nextTurn();
    const later = [group.submit('b'), group.submit('c')];
    await nextTurn();
    expect(writes).toHaveLength(1);
    writes[0].release();
    await first;
    expect(writes.map((w) => w.items)).toEqual([['a'], ['b', 'c']]);
    writes[1].release();
    await expect(Promise.all(later)).resolves.toEqual(['b!', 'c!']);
  });

  it('keeps up to `concurrency` writes out at once', async () => {
    const { writes, write } = heldWrites();
    const group = new GroupCommit(write, { concurrency: 2 });
    const answers = [group.submit('a')];
    await nextTurn();
    answers.push(group.submit('b'));
    await nextTurn();
    answers.push(group.submit('c'), group.submit('d'));
    await nextTurn();
    expect(writes.map((w) => w.items)).toEqual([['a'], ['b']]);
    writes[1].release();
    await answers[1];
    expect(writes.map((w) => w.items)).toEqual([['a'], ['b'], ['c', 'd']]);
    writes[0].release();
    writes[2].release();
    await expect(Promise.all(answers)).resolves.toEqual(['a!', 'b!', 'c!', 'd!']);
  });

  it('splits by count and by size, one item always going even when larger than the limit', async () => {
    const { writes, write } = heldWrites();
    const group = new GroupCommit(write, {
      concurrency: 10,
      maxItems: 2,
      size: { of: (item: string) => item.length, max: 4 },
    });
    const answers = ['a', 'b', 'c', 'dddddd', 'ee', 'ff'].map((item) => group.submit(item));
    await nextTurn();
    expect(writes.map((w) => w.items)).toEqual([['a', 'b'], ['c'], ['dddddd'], ['ee', 'ff']]);
    for (const w of writes) w.release();
    await expect(Promise.all(answers)).resolves.toHaveLength(6);
  });

  it('fails every caller of a failed write, and only those', async () => {
    const { writes, write } = heldWrites();
    const group = new GroupCommit(write, { concurrency: 2 });
    const failed = [group.submit('a'), group.submit('b')];
    await nextTurn();
    const fine = group.submit('c');
    await nextTurn();
    writes[0].release(new Error('disk full'));
    writes[1].release();
    for (const answer of failed) await expect(answer).rejects.toThrow('disk full');
    await expect(fine).resolves.toBe('c!');
  });

  it('reports drained once every submitted item has been written', async () => {
    const { writes, write } = heldWrites();
    const group = new GroupCommit(write);
    await group.drained();
    const answers = [group.submit('a')];
    let drained = false;
    const draining = group.drained().then(() => (drained = true));
    await nextTurn();
    answers.push(group.submit('b'));
    writes[0].release();
    await answers[0];
    expect(drained).toBe(false);
    await nextTurn();
    writes[1].release();
    await draining;
    expect(drained).toBe(true);
  });
});
