import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type DefinitionChange, type Entitlements, PlanCatalog, type StoredDocument } from '@platform/domain';
import { DefinitionFeed } from '../platform/definition-feed';

const KINDS = new Set(['plans', 'subscriptions']);

/**
 * The plans and subscriptions as this control plane serves them: followed from the definitions
 * feed as the sidecars follow it (its own writes at once, another replica's within the feed's
 * poll), so the platform's own metering reads a map, never the database.
 */
@Injectable()
export class ControlPlanePlans implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly documents = new Map<string, StoredDocument>();
  private readonly catalog = new PlanCatalog((kind, tenant, name) =>
    this.documents.get(keyOf(kind, tenant, name)),
  );
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly feed: DefinitionFeed) {}

  async onApplicationBootstrap(): Promise<void> {
    this.unsubscribe = await this.feed.subscribe(0, (change) => this.apply(change));
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
  }

  entitlements(tenant: string, now: Date): Entitlements {
    return this.catalog.entitlements(tenant, now);
  }

  private apply(change: DefinitionChange): void {
    if (!KINDS.has(change.kind)) return;
    const key = keyOf(change.kind, change.tenant, change.name);
    if (change.document === null) this.documents.delete(key);
    else this.documents.set(key, { version: change.version, document: change.document });
  }
}

const keyOf = (kind: string, tenant: string, name: string) => `${kind}\u0000${tenant}\u0000${name}`;
