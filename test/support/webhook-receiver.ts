import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookMessageDto } from '@platform/contract';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  id: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  message: WebhookMessageDto;
  /** The secrets (of those the receiver knows) whose signature verified. */
  verifiedWith: string[];
}

/** What the receiver answers to one request: a status, or `hang` (never answers). */
export type Answer = number | 'hang';

/**
 * A real HTTP receiver, as a customer would write one: it verifies every delivery with the
 * Standard Webhooks library and keeps what it received.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  secrets: string[] = [];
  /** Decides the answer to each request; 204 unless set. */
  answer: (request: { id: string; attempt: number; path: string }) => Answer = () => 204;
  private readonly server = createServer((req, res) => void this.handle(req, res));
  private readonly hanging = new Set<ServerResponse>();

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Waits until `predicate` holds over what was received. */
  async waitFor(
    predicate: (received: ReceivedWebhook[]) => boolean,
    timeoutMs = 15_000,
  ): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.received)) {
      if (Date.now() > deadline)
        throw new Error(
          `webhooks not received in time; got ${JSON.stringify(this.received.map((r) => r.id))}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.received;
  }

  of(type: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.message.type === type);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    const id = headers['webhook-id'];
    const attempt = this.received.filter((r) => r.id === id).length + 1;
    const verifiedWith = this.secrets.filter((secret) => {
      try {
        new Webhook(secret).verify(body, headers);
        return true;
      } catch {
        return false;
      }
    });
    const answer = this.answer({ id, attempt, path: req.url ?? '/' });
    this.received.push({
      id,
      path: req.url ?? '/',
      headers,
      body,
      message: JSON.parse(body) as WebhookMessageDto,
      verifiedWith,
    });
    if (answer === 'hang') {
      this.hanging.add(res);
      return;
    }
    res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer >= 300 ? 'not now' : '');
  }
}
