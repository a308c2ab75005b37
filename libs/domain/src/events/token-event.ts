import type { AuditAttributes } from '../audit/audit-record';

export const TOKEN_EVENT_TYPES = [
  'token.issued',
  'token.revoked',
  'token.exchanged',
  'token.impersonated',
  'token.federated',
  'refresh_token.rotated',
  'grant.revoked',
  'app.registered',
  'app.deleted',
  'app.secret_rotated',
  'app.updated',
] as const;
export type TokenEventType = (typeof TOKEN_EVENT_TYPES)[number];

export interface TokenEventInput {
  type: TokenEventType;
  clientId: string;
  /** The user or, for service tokens, the client. */
  subject: string | null;
  jti: string | null;
  grantId: string | null;
  occurredAt: Date;
  /** The tenant of the user it concerns: it goes into the event's audit record only. */
  tenant?: string | null;
  /**
   * The correlation id of the request it happened in, taken when it is written later, out of
   * that request's context (a group commit): it goes into the event's audit record only.
   */
  correlationId?: string | null;
  /**
   * Who acted, where it is neither the subject nor the client (the impersonator of an
   * impersonation token), and what else the record says: its audit record only.
   */
  actor?: { kind: 'user' | 'app'; id: string };
  attributes?: AuditAttributes;
}

export interface TokenEvent extends Omit<TokenEventInput, 'tenant' | 'correlationId' | 'actor' | 'attributes'> {
  id: number;
}

export interface TokenEventStore {
  appendTokenEvents(events: TokenEventInput[]): Promise<void>;
  /** Ascending by id; `after` exclusive. */
  listTokenEvents(query: { after?: number; limit: number; clientId?: string }): Promise<TokenEvent[]>;
  /**
   * Deletes, among the oldest `limit` events (by id), those that occurred before `before`;
   * answers how many. Fewer than `limit` means the oldest events left are younger.
   */
  pruneTokenEvents(before: Date, limit: number): Promise<number>;
}
