import type { Clock } from '../clock';
import type { TokenEventInput } from '../events/token-event';
import type { Stores, Transactor } from '../storage';
import type { ActingPrincipal } from '../users/user-administration';
import type { AuditActorKind, AuditAttributes, AuditEventInput, AuditOutcome } from './audit-record';

export interface AuditActor {
  kind: AuditActorKind;
  id: string;
  /** Who acted for it (an impersonator, a delegate): the record's `acted_by` attribute. */
  actedBy?: string;
}

/** Who the platform's own records name when no caller did it: its own processes. */
export const PLATFORM_ACTOR: AuditActor = { kind: 'platform', id: 'platform' };

/** The actor a caller acts as: the user of a user token, else the application. */
export function auditActorOf(principal: ActingPrincipal): AuditActor {
  const actor: AuditActor =
    principal.kind === 'user' ? { kind: 'user', id: principal.id } : { kind: 'app', id: principal.clientId };
  return principal.actedBy === undefined ? actor : { ...actor, actedBy: principal.actedBy };
}

export interface AuditEntry {
  actor: AuditActor;
  action: string;
  target?: string | null;
  tenant?: string | null;
  outcome?: AuditOutcome;
  attributes?: AuditAttributes;
  occurredAt?: Date;
  /** When it was taken earlier; else the correlation id of the request in progress. */
  correlationId?: string | null;
}

/**
 * Turns what happened into audit records: the time from the clock, the correlation id of the
 * request in progress. The platform's own actions go through here; so do token events, which
 * are audited one for one.
 */
export class AuditTrail {
  constructor(
    private readonly clock: Clock,
    private readonly correlationId: () => string | undefined = () => undefined,
  ) {}

  record(entry: AuditEntry): AuditEventInput {
    return {
      tenant: entry.tenant ?? null,
      actorKind: entry.actor.kind,
      actorId: entry.actor.id,
      action: entry.action,
      target: entry.target ?? null,
      outcome: entry.outcome ?? 'success',
      occurredAt: entry.occurredAt ?? this.clock.now(),
      correlationId: entry.correlationId !== undefined ? entry.correlationId : (this.correlationId() ?? null),
      attributes:
        entry.actor.actedBy === undefined
          ? (entry.attributes ?? {})
          : { ...entry.attributes, acted_by: entry.actor.actedBy },
    };
  }

  /**
   * A token event as an audit record. Token events name the client and the subject: a subject
   * other than the client is a user acting through it. Registry events (`app.*`) are the
   * platform's own actions on the app they name.
   */
  ofTokenEvent(event: TokenEventInput): AuditEventInput {
    const attributes: AuditAttributes = { ...event.attributes, client_id: event.clientId };
    if (event.subject !== null) attributes.subject = event.subject;
    if (event.jti !== null) attributes.jti = event.jti;
    if (event.grantId !== null) attributes.grant_id = event.grantId;
    const byUser = event.subject !== null && event.subject !== event.clientId;
    return this.record({
      actor: event.type.startsWith('app.')
        ? PLATFORM_ACTOR
        : (event.actor ?? {
            kind: byUser ? 'user' : 'app',
            id: byUser ? (event.subject as string) : event.clientId,
          }),
      action: event.type,
      tenant: event.tenant,
      target: event.type.startsWith('app.') ? event.clientId : (event.jti ?? event.grantId ?? event.clientId),
      attributes,
      occurredAt: event.occurredAt,
      correlationId: event.correlationId,
    });
  }
}

/**
 * Every transaction it runs audits its token events in the same transaction: issuance,
 * revocation, rotation, family revocation and the registry's changes commit with their records
 * or not at all.
 */
export class AuditedTransactor implements Transactor {
  constructor(
    private readonly inner: Transactor,
    private readonly trail: AuditTrail,
  ) {}

  inTransaction<T>(work: (stores: Stores) => Promise<T>): Promise<T> {
    return this.inner.inTransaction((stores) => work(this.audited(stores)));
  }

  private audited(stores: Stores): Stores {
    const tokenEvents = stores.tokenEvents;
    return {
      ...stores,
      tokenEvents: {
        appendTokenEvents: async (events) => {
          await tokenEvents.appendTokenEvents(events);
          await stores.audit.appendAuditRecords(events.map((event) => this.trail.ofTokenEvent(event)));
        },
        listTokenEvents: (query) => tokenEvents.listTokenEvents(query),
        pruneTokenEvents: (before, limit) => tokenEvents.pruneTokenEvents(before, limit),
      },
    };
  }
}
