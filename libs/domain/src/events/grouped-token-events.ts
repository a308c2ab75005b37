import { GroupCommit } from '../group-commit';
import type { TokenEventInput, TokenEventStore } from './token-event';

type Append = Pick<TokenEventStore, 'appendTokenEvents'>;

/**
 * Token events by group commit (GroupCommit): the appends of a turn, or of the time a write
 * was in flight, go to the store in one call. A token is answered only once its event is
 * stored; a failed write fails each of its callers. Each event takes the correlation id of the
 * request that appends it, since the write runs in the context of whichever request started it.
 */
export class GroupedTokenEvents implements Append {
  private readonly commits: GroupCommit<TokenEventInput[], void>;

  constructor(
    store: Append,
    private readonly correlationId: () => string | undefined = () => undefined,
  ) {
    this.commits = new GroupCommit<TokenEventInput[], void>(async (batches) => {
      await store.appendTokenEvents(batches.flat());
      return batches.map(() => undefined);
    });
  }

  appendTokenEvents(events: TokenEventInput[]): Promise<void> {
    const correlationId = this.correlationId() ?? null;
    return this.commits.submit(events.map((event) => ({ correlationId, ...event })));
  }
}
