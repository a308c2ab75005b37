import { AsyncLocalStorage } from 'node:async_hooks';
import { AuditTrail } from '../audit/audit-trail';
import { ManualClock } from '../clock';
import type { TokenEventInput } from './token-event';
import { GroupedTokenEvents } from './grouped-token-events';

const event = (jti: string): TokenEventInput => ({
  type: 'token.issued',
  clientId: 'reports-worker',
  subject: 'reports-worker',
  jti,
  grantId: null,
  occurredAt: new Date(0),
});

function recordingStore(fail = false) {
  const writes: string[][] = [];
  return {
    writes,
    appendTokenEvents: jest.fn(async (events: TokenEventInput[]) => {
      writes.push(events.map((e) => e.jti!));
      if (fail) throw new Error('disk full');
    }),
  };
}

describe(GroupedTokenEvents.name, () => {
  it('writes the appends of one turn in one statement, in order, and settles each after it', async () => {
    const store = recordingStore();
    const grouped = new GroupedTokenEvents(store);
    let settled = 0;
    const appends = ['a', 'b', 'c'].map((jti) =>
      grouped.appendTokenEvents([event(jti)]).then(() => settled++),
    );
    expect(store.appendTokenEvents).not.toHaveBeenCalled();
    expect(settled).toBe(0);
    await Promise.all(appends);
    expect(store.writes).toEqual([['a', 'b', 'c']]);
    expect(settled).toBe(3);
  });

  it('writes appends of later turns in later statements', async () => {
    const store = recordingStore();
    const grouped = new GroupedTokenEvents(store);
    await grouped.appendTokenEvents([event('a')]);
    await grouped.appendTokenEvents([event('b'), event('c')]);
    expect(store.writes).toEqual([['a'], ['b', 'c']]);
  });

  it('gathers the appends made during a write for one write after it', async () => {
    let release!: () => void;
    const writes: string[][] = [];
    const grouped = new GroupedTokenEvents({
      appendTokenEvents: async (events) => {
        writes.push(events.map((e) => e.jti!));
        if (writes.length === 1) await new Promise<void>((resolve) => (release = resolve));
      },
    });
    const first = grouped.appendTokenEvents([event('a')]);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [grouped.appendTokenEvents([event('b')])];
    await new Promise((resolve) => setImmediate(resolve));
    later.push(grouped.appendTokenEvents([event('c')]));
    expect(writes).toEqual([['a']]);

    release();
    await Promise.all([first, ...later]);

    expect(writes).toEqual([['a'], ['b', 'c']]);
  });

  it('fails every caller of a failed write, and the next turn writes afresh', async () => {
    const failing = recordingStore(true);
    const grouped = new GroupedTokenEvents(failing);
    const results = await Promise.allSettled([
      grouped.appendTokenEvents([event('a')]),
      grouped.appendTokenEvents([event('b')]),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await expect(grouped.appendTokenEvents([event('c')])).rejects.toThrow('disk full');
    expect(failing.writes).toEqual([['a', 'b'], ['c']]);
  });

  it('gives each event the correlation id of the request that appended it, not of the one whose turn wrote it', async () => {
    const requests = new AsyncLocalStorage<string>();
    const correlationId = () => requests.getStore();
    const trail = new AuditTrail(new ManualClock(), correlationId);
    const audited: Array<string | null> = [];
    const grouped = new GroupedTokenEvents(
      {
        appendTokenEvents: async (events) => {
          audited.push(...events.map((e) => trail.ofTokenEvent(e).correlationId));
        },
      },
      correlationId,
    );
    await Promise.all(
      ['req-1', 'req-2', 'req-3'].map((id) => requests.run(id, () => grouped.appendTokenEvents([event(id)]))),
    );
    expect(audited).toEqual(['req-1', 'req-2', 'req-3']);
  });
});
