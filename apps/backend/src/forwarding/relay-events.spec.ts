import { PassThrough } from 'node:stream';
import { relayEvents } from './relay-events';

async function* chunks(...parts: string[]): AsyncIterable<Buffer> {
  for (const part of parts) yield Buffer.from(part);
}

async function relayed(...parts: string[]): Promise<{ written: string[]; upstreamEnded: boolean }> {
  const to = new PassThrough();
  const written: string[] = [];
  to.on('data', (chunk: Buffer) => written.push(chunk.toString()));
  let upstreamEnded = false;
  await relayEvents(chunks(...parts), to, new AbortController().signal, () => (upstreamEnded = true));
  return { written, upstreamEnded };
}

describe(relayEvents.name, () => {
  it('passes events on whole, however the upstream splits them, and never the half of one', async () => {
    const { written } = await relayed(
      'id: 1\nevent: job_log\nda',
      'ta: {"line":"a"}\n\nid: 2\nevent: job_log\ndata: {"line":"b"}\n\nid: 3\nev',
    );

    expect(written).toEqual([
      'id: 1\nevent: job_log\ndata: {"line":"a"}\n\nid: 2\nevent: job_log\ndata: {"line":"b"}\n\n',
    ]);
  });

  it('passes heartbeats on', async () => {
    expect((await relayed(': heartbeat\n\n')).written).toEqual([': heartbeat\n\n']);
  });

  it('tells when the upstream ended the stream itself, and only then', async () => {
    expect((await relayed('event: end\ndata: {"reason":"token_expired"}\n\n')).upstreamEnded).toBe(true);
    expect((await relayed('id: 1\nevent: job_log\ndata: {"line":"event: end\\n"}\n\n')).upstreamEnded).toBe(
      false,
    );
    expect((await relayed('id: 1\nevent: endless\ndata: {}\n\n')).upstreamEnded).toBe(false);
  });
});
