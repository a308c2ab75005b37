/** One dispatched Server-Sent Event (comments such as `: ping` are not dispatched). */
export interface ServerSentEvent {
  event: string;
  data: string;
  /** The `id:` field of this event, if it had one. */
  id?: string;
}

/**
 * Parses a `text/event-stream` body (WHATWG HTML, "Server-sent events", parsing rules):
 * lines end with CRLF, LF or CR; a blank line dispatches; `data` lines are joined with LF.
 */
export async function* parseServerSentEvents(
  chunks: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;

  const take = (line: string): ServerSentEvent | undefined => {
    if (line === '') {
      const dispatched =
        data.length > 0 ? { event: event || 'message', data: data.join('\n'), id } : undefined;
      event = '';
      data = [];
      id = undefined;
      return dispatched;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
    return undefined;
  };

  // A CR ending one chunk may be the first half of a CRLF: the LF starting the next is skipped.
  let skipLineFeed = false;
  for await (const chunk of chunks) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    if (skipLineFeed && buffer.charCodeAt(0) === 10) start = 1;
    skipLineFeed = false;
    for (let i = start; i < buffer.length; i++) {
      const char = buffer.charCodeAt(i);
      if (char !== 10 && char !== 13) continue;
      const dispatched = take(buffer.slice(start, i));
      if (char === 13) {
        if (i === buffer.length - 1) skipLineFeed = true;
        else if (buffer.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
      if (dispatched) yield dispatched;
    }
    buffer = buffer.slice(start);
  }
}
