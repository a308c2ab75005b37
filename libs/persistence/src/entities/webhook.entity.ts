import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis, jsonStringArray, numericId } from '../transformers';

@Entity('webhook_endpoints')
export class WebhookEndpointEntity {
  @PrimaryColumn({ type: 'varchar' })
  id: string;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'text' })
  description: string;

  @Column({ name: 'event_types', type: 'text', transformer: jsonStringArray })
  eventTypes: string[];

  @Column({ type: 'varchar', nullable: true })
  tenant: string | null;

  @Column({ name: 'disabled_at', type: 'bigint', nullable: true, transformer: epochMillis })
  disabledAt: Date | null;

  /** Sealed, to sign deliveries; never logged or returned after creation (docs/webhooks.md). */
  @Column({ name: 'secret', type: 'varchar' })
  storedSecret: string;

  @Column({ name: 'previous_secret', type: 'varchar', nullable: true })
  previousStoredSecret: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'bigint', nullable: true, transformer: epochMillis })
  previousSecretExpiresAt: Date | null;

  @Column({ name: 'start_after_sequence', type: 'bigint', transformer: numericId })
  startAfterSequence: number;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMillis })
  updatedAt: Date;
}

@Entity('webhook_deliveries')
@Index('idx_webhook_deliveries_due', ['endpointId', 'state', 'nextAttemptAt'])
@Index('idx_webhook_deliveries_leased', ['leaseUntil'])
@Index('idx_webhook_deliveries_endpoint', ['endpointId', 'id'])
export class WebhookDeliveryEntity {
  @PrimaryColumn({ type: 'integer', generated: 'increment', transformer: numericId })
  id: number;

  @Column({ name: 'endpoint_id', type: 'varchar' })
  endpointId: string;

  @Column({ name: 'sequence_id', type: 'bigint', transformer: numericId })
  sequenceId: number;

  @Column({ name: 'event_type', type: 'varchar' })
  eventType: string;

  @Column({ type: 'varchar' })
  state: string;

  @Column({ type: 'integer' })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'bigint', transformer: epochMillis })
  nextAttemptAt: Date;

  @Column({ name: 'lease_until', type: 'bigint', nullable: true, transformer: epochMillis })
  leaseUntil: Date | null;

  @Column({ name: 'replay_of', type: 'bigint', nullable: true, transformer: numericId })
  replayOf: number | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;
}

@Entity('webhook_attempts')
export class WebhookAttemptEntity {
  @PrimaryColumn({ name: 'delivery_id', type: 'bigint', transformer: numericId })
  deliveryId: number;

  @PrimaryColumn({ type: 'integer' })
  attempt: number;

  @Column({ type: 'bigint', transformer: epochMillis })
  at: Date;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  @Column({ type: 'integer', nullable: true })
  status: number | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ name: 'response_excerpt', type: 'text', nullable: true })
  responseExcerpt: string | null;
}

/** How far the dispatcher has fanned the audit log out: one row (id 1), locked while it works. */
@Entity('webhook_dispatch_cursor')
export class WebhookDispatchCursorEntity {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'last_sequence_id', type: 'bigint', transformer: numericId })
  lastSequenceId: number;
}
