import { parseServerSentEvents, type ServerSentEvent } from './server-sent-events';

async function parse(...chunks: string[]): Promise<ServerSentEvent[]> {
  const encoder = new TextEncoder();
  async function* source() {
    for (const chunk of chunks) yield encoder.encode(chunk);
  }
  const events: ServerSentEvent[] = [];
  for await (const event of parseServerSentEvents(source())) events.push(event);
  return events;
}

describe(parseServerSentEvents.name, () => {
  it('dispatches one event per blank-line-terminated block with its id', async () => {
    await expect(parse('id: 1\ndata: {"seq":1}\n\nid: 2\ndata: {"seq":2}\n\n')).resolves.toEqual([
      { event: 'message', id: '1', data: '{"seq":1}' },
      { event: 'message', id: '2', data: '{"seq":2}' },
    ]);
  });

  it('skips comments such as the keep-alive ping', async () => {
    await expect(parse(': ping\n\n', 'data: x\n\n', ': ping\n\n')).resolves.toEqual([
      { event: 'message', data: 'x' },
    ]);
  });

  it('reassembles events and multi-byte characters split across chunks', async () => {
    const bytes = new TextEncoder().encode('data: café\n\n');
    const split = new TextDecoder().decode(bytes.slice(0, 10));
    expect(split).not.toContain('é');

    const events: ServerSentEvent[] = [];
    async function* source() {
      yield bytes.slice(0, 10);
      yield bytes.slice(10);
    }
    for await (const event of parseServerSentEvents(source())) events.push(event);

    expect(events).toEqual([{ event: 'message', data: 'café' }]);
  });

  it('accepts CRLF and CR line endings, including a CRLF split between chunks', async () => {
    await expect(parse('id: 7\r', '\ndata: a\r\n\r\n', 'data: b\r\r')).resolves.toEqual([
      { event: 'message', id: '7', data: 'a' },
      { event: 'message', data: 'b' },
    ]);
  });

  it('joins several data lines with a line feed and keeps the event name', async () => {
    await expect(parse('event: revocation\ndata: a\ndata: b\n\n')).resolves.toEqual([
      { event: 'revocation', data: 'a\nb' },
    ]);
  });

  it('drops an event left incomplete when the stream ends', async () => {
    await expect(parse('data: complete\n\ndata: cut')).resolves.toEqual([
      { event: 'message', data: 'complete' },
    ]);
  });
});
