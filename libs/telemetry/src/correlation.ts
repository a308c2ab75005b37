import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The HTTP header and the gRPC metadata key that carry a request's correlation id between hops. */
export const CORRELATION_HEADER = 'x-request-id';

/** A correlation id we accept from a caller: a plain token, never arbitrary bytes for the logs. */
export const SANE_CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const storage = new AsyncLocalStorage<string>();

/**
 * Runs `work` with `id` as the correlation id of everything it calls, however deep. Set once
 * where a request enters a process (HTTP hook, gRPC interceptor); read by the logger and by
 * every outgoing call, so no signature carries a request id.
 */
export function withCorrelationId<T>(id: string, work: () => T): T {
  return storage.run(id, work);
}

/** The correlation id of the request being handled, if any. */
export function correlationId(): string | undefined {
  return storage.getStore();
}

/** An incoming id when it is a plain token (never echo arbitrary bytes into logs), else a fresh UUID. */
export function acceptCorrelationId(incoming: string | undefined): string {
  return incoming !== undefined && SANE_CORRELATION_ID.test(incoming) ? incoming : randomUUID();
}
