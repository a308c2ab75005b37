/** One Server-Sent Event as a client dispatches it. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/** A live stream read with fetch: its status, the events so far, and when the server ended it. */
export interface SseStream {
  status: number;
  events: SseEvent[];
  /** Resolves with `Date.now()` once the server has closed the stream (or `close()` was called). */
  closed: Promise<number>;
  close(): void;
}

/**
 * Opens `url` with `Accept: text/event-stream` and reads it with a streamed body: unlike an
 * EventSource, it never reconnects, so a test sees exactly when and how the server ended it.
 */
export async function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  const closed = (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of response.body ?? []) {
        buffered += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let cut = buffered.indexOf('\n\n'); cut >= 0; cut = buffered.indexOf('\n\n')) {
          const event = parseEvent(buffered.slice(0, cut));
          buffered = buffered.slice(cut + 2);
          if (event !== undefined) events.push(event);
        }
      }
    } catch {
      // Aborted by close().
    }
    return Date.now();
  })();
  return { status: response.status, events, closed, close: () => abort.abort() };
}

/** The event of one block of lines; undefined for a block of comments (a heartbeat). */
function parseEvent(block: string): SseEvent | undefined {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  }
  if (data.length === 0) return undefined;
  return { event, data: data.join('\n'), ...(id !== undefined && { id }) };
}

/** Resolves once the stream has closed, failing when it is still open after `timeoutMs`. */
export function closedWithin(stream: SseStream, timeoutMs: number): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the stream was still open after ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([stream.closed, timeout]).finally(() => clearTimeout(timer));
}
