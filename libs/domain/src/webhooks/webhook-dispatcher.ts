import type { Stores, Transactor } from '../storage';
import { endpointReceives } from './webhook-endpoint';

/** Records read per dispatch transaction. */
const DISPATCH_PAGE = 500;

/**
 * The outbox relay. The audit log is the outbox: every event's record commits in the
 * transaction of the change it describes, with a gap-free sequence id. The dispatcher follows
 * the log with a cursor and, in one transaction, turns each new record into a delivery for
 * every endpoint that subscribes to it and moves the cursor past it; a crash before the commit
 * leaves the cursor where it was, so the records are fanned out again, never lost. Replicas take
 * turns on the cursor's lock. Issuance pays nothing for webhooks.
 */
export class WebhookDispatcher {
  /** The cursor as this process last saw it: while the chain's head is there, there is no work. */
  private seenThrough = -1;

  constructor(
    private readonly stores: Pick<Stores, 'webhooks' | 'audit'>,
    private readonly transactor: Transactor,
    private readonly now: () => Date,
  ) {}

  /** Fans out the next page of records; answers how many it read (0: caught up). */
  async dispatchOnce(): Promise<number> {
    // Two plain reads decide whether to take the cursor's lock at all.
    if ((await this.stores.audit.auditChainHead()).lastSequenceId <= this.seenThrough) return 0;
    if (!(await this.stores.webhooks.listWebhookEndpoints()).some((e) => e.disabledAt === null)) return 0;
    return this.transactor.inTransaction(async (stores) => {
      const cursor = await stores.webhooks.lockWebhookDispatchCursor();
      const endpoints = (await stores.webhooks.listWebhookEndpoints()).filter((e) => e.disabledAt === null);
      if (endpoints.length === 0) return 0;
      // No endpoint wants anything older than its registration: skip history nobody receives.
      const after = Math.max(cursor, Math.min(...endpoints.map((e) => e.startAfterSequence)));
      const records = await stores.audit.listAuditRecords({ after, limit: DISPATCH_PAGE });
      const through = records.length > 0 ? records[records.length - 1].sequenceId : after;
      const now = this.now();
      await stores.webhooks.insertWebhookDeliveries(
        records.flatMap((record) =>
          endpoints
            .filter((endpoint) => endpointReceives(endpoint, record))
            .map((endpoint) => ({
              endpointId: endpoint.id,
              sequenceId: record.sequenceId,
              eventType: record.action,
              replayOf: null,
              nextAttemptAt: now,
            })),
        ),
        now,
      );
      if (through > cursor) await stores.webhooks.setWebhookDispatchCursor(through);
      this.seenThrough = through;
      return records.length;
    });
  }
}
