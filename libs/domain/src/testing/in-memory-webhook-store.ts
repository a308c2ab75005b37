import type {
  ClaimedWebhookDeliveries,
  WebhookAttempt,
  WebhookAttemptResult,
  WebhookClaim,
  WebhookDelivery,
  WebhookDeliveryInput,
  WebhookDeliveryQuery,
  StoredWebhookSecrets,
  WebhookEndpoint,
  WebhookStore,
} from '../webhooks/webhook-endpoint';

const copy = <T>(value: T): T => structuredClone(value);

interface State {
  endpoints: WebhookEndpoint[];
  deliveries: WebhookDelivery[];
  attempts: WebhookAttempt[];
  cursor: number;
  nextDeliveryId: number;
}

/** The webhook tables in memory, held to the same contract as the SQL store. */
export class InMemoryWebhookStore implements WebhookStore {
  private state: State = { endpoints: [], deliveries: [], attempts: [], cursor: 0, nextDeliveryId: 1 };

  async insertWebhookEndpoint(endpoint: WebhookEndpoint): Promise<void> {
    this.state.endpoints.push(copy(endpoint));
  }

  async findWebhookEndpoint(id: string): Promise<WebhookEndpoint | null> {
    const found = this.state.endpoints.find((e) => e.id === id);
    return found ? copy(found) : null;
  }

  async listWebhookEndpoints(): Promise<WebhookEndpoint[]> {
    return [...this.state.endpoints]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map(copy);
  }

  async updateWebhookEndpoint(endpoint: WebhookEndpoint): Promise<boolean> {
    const index = this.state.endpoints.findIndex((e) => e.id === endpoint.id);
    if (index < 0) return false;
    this.state.endpoints[index] = copy(endpoint);
    return true;
  }

  async replaceWebhookSecrets(
    id: string,
    expected: StoredWebhookSecrets,
    next: StoredWebhookSecrets,
  ): Promise<boolean> {
    const endpoint = this.state.endpoints.find((e) => e.id === id);
    if (
      endpoint?.storedSecret !== expected.storedSecret ||
      endpoint.previousStoredSecret !== expected.previousStoredSecret
    )
      return false;
    Object.assign(endpoint, {
      storedSecret: next.storedSecret,
      previousStoredSecret: next.previousStoredSecret,
    });
    return true;
  }

  async deleteWebhookEndpoint(id: string): Promise<boolean> {
    const before = this.state.endpoints.length;
    this.state.endpoints = this.state.endpoints.filter((e) => e.id !== id);
    const gone = new Set(this.state.deliveries.filter((d) => d.endpointId === id).map((d) => d.id));
    this.state.deliveries = this.state.deliveries.filter((d) => !gone.has(d.id));
    this.state.attempts = this.state.attempts.filter((a) => !gone.has(a.deliveryId));
    return this.state.endpoints.length < before;
  }

  async lockWebhookDispatchCursor(): Promise<number> {
    return this.state.cursor;
  }

  async setWebhookDispatchCursor(sequenceId: number): Promise<void> {
    this.state.cursor = sequenceId;
  }

  async insertWebhookDeliveries(inputs: WebhookDeliveryInput[], now: Date): Promise<WebhookDelivery[]> {
    const created = inputs.map((input) => ({
      ...copy(input),
      id: this.state.nextDeliveryId++,
      state: 'pending' as const,
      attempts: 0,
      leaseUntil: null,
      createdAt: now,
    }));
    this.state.deliveries.push(...created);
    return created.map(copy);
  }

  private claim(claim: WebhookClaim): WebhookDelivery[] {
    const now = claim.now.getTime();
    const enabled = new Set(this.state.endpoints.filter((e) => e.disabledAt === null).map((e) => e.id));
    const leased = (d: WebhookDelivery) => d.leaseUntil !== null && d.leaseUntil.getTime() > now;
    const inFlight = new Map<string, number>();
    for (const d of this.state.deliveries) {
      if (d.state === 'pending' && leased(d))
        inFlight.set(d.endpointId, (inFlight.get(d.endpointId) ?? 0) + 1);
    }
    const due = this.state.deliveries
      .filter(
        (d) =>
          d.state === 'pending' &&
          enabled.has(d.endpointId) &&
          !leased(d) &&
          d.nextAttemptAt.getTime() <= now,
      )
      .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.id - b.id);
    const claimed: WebhookDelivery[] = [];
    for (const delivery of due) {
      if (claimed.length >= claim.limit) break;
      const lane = inFlight.get(delivery.endpointId) ?? 0;
      if (lane >= claim.perEndpoint) continue;
      inFlight.set(delivery.endpointId, lane + 1);
      delivery.leaseUntil = claim.leaseUntil;
      claimed.push(copy(delivery));
    }
    return claimed;
  }

  async recordAndClaimWebhookDeliveries(
    finished: WebhookAttemptResult[],
    claim: WebhookClaim,
  ): Promise<ClaimedWebhookDeliveries> {
    await this.recordWebhookAttempts(finished);
    const deliveries = this.claim(claim);
    const claimedFor = new Set(deliveries.map((d) => d.endpointId));
    return { deliveries, endpoints: this.state.endpoints.filter((e) => claimedFor.has(e.id)).map(copy) };
  }

  async recordWebhookAttempts(results: WebhookAttemptResult[]): Promise<void> {
    for (const { attempt, outcome } of results) {
      const delivery = this.state.deliveries.find((d) => d.id === attempt.deliveryId);
      if (!delivery) continue;
      this.state.attempts.push(copy(attempt));
      delivery.attempts += 1;
      delivery.state = outcome.state;
      delivery.nextAttemptAt = outcome.nextAttemptAt;
      delivery.leaseUntil = null;
    }
  }

  async findWebhookDelivery(id: number): Promise<WebhookDelivery | null> {
    const found = this.state.deliveries.find((d) => d.id === id);
    return found ? copy(found) : null;
  }

  async listWebhookDeliveries(query: WebhookDeliveryQuery): Promise<WebhookDelivery[]> {
    return this.state.deliveries
      .filter(
        (d) =>
          d.endpointId === query.endpointId &&
          (query.state === undefined || d.state === query.state) &&
          d.id > (query.after ?? 0),
      )
      .slice(0, query.limit)
      .map(copy);
  }

  async listWebhookAttempts(deliveryIds: number[]): Promise<WebhookAttempt[]> {
    const wanted = new Set(deliveryIds);
    return this.state.attempts
      .filter((a) => wanted.has(a.deliveryId))
      .sort((a, b) => a.deliveryId - b.deliveryId || a.attempt - b.attempt)
      .map(copy);
  }

  snapshot(): unknown {
    return copy(this.state);
  }

  restore(state: unknown): void {
    this.state = state as State;
  }
}
