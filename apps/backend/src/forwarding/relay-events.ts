import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { LIVE_END_EVENT } from '@platform/http';

const EVENT_END = Buffer.from('\n\n');
const END_FIELD = Buffer.from(`event: ${LIVE_END_EVENT}\n`);
const NEWLINE = 0x0a;

/**
 * Copies Server-Sent Events from `from` to `to` whole (each up to its blank line), so that what
 * is written after them (the relay's `end` event) never lands inside one of theirs. An `end`
 * event among them (the control plane ends an admin stream at the token's expiry too) already
 * says why the stream ends: `upstreamEnds` is called.
 */
export async function relayEvents(
  from: AsyncIterable<Buffer>,
  to: Writable,
  signal: AbortSignal,
  upstreamEnds: () => void,
): Promise<void> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of from) {
    const bytes = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    const cut = bytes.lastIndexOf(EVENT_END);
    if (cut < 0) {
      pending = bytes;
      continue;
    }
    const events = bytes.subarray(0, cut + EVENT_END.length);
    pending = bytes.subarray(cut + EVENT_END.length);
    if (carriesEnd(events)) upstreamEnds();
    if (!to.write(events)) await once(to, 'drain', { signal });
  }
}

/** Whether one of these whole events is an `end` event (a field at the start of a line). */
function carriesEnd(events: Buffer): boolean {
  for (let at = events.indexOf(END_FIELD); at >= 0; at = events.indexOf(END_FIELD, at + 1)) {
    if (at === 0 || events[at - 1] === NEWLINE) return true;
  }
  return false;
}
