import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { isPublicAddress, type WebhookResponse, type WebhookSender } from '@platform/domain';
import { Agent, request } from 'undici';

/** The start of a receiver's answer kept in the delivery log. */
export const WEBHOOK_RESPONSE_EXCERPT_BYTES = 1024;

export interface HttpWebhookSenderOptions {
  timeoutMs: number;
  /** false (production): connect only to public unicast addresses, whatever DNS says. */
  allowPrivateNetworks: boolean;
  /**
   * Connections kept to one origin (default 16): the loop's concurrency, so that endpoints
   * sharing a host do not queue behind each other's attempts.
   */
  connections?: number;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * POSTs webhook messages (and back-channel logout tokens) with undici: no redirects followed (a 3xx is a failed attempt), the
 * whole exchange bounded by the timeout, at most a KiB of the answer read. In production every
 * address a name resolves to must be public, checked at connection time, so DNS rebinding
 * cannot point a registered name at the platform's own network.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly options: HttpWebhookSenderOptions) {
    this.agent = new Agent({
      connect: options.allowPrivateNetworks ? {} : { lookup: publicOnlyLookup },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connections: options.connections ?? 16,
    });
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<WebhookResponse> {
    const refused = this.refusedAddress(url);
    if (refused) return { status: null, error: refused, excerpt: null };
    try {
      const response = await request(url, {
        method: 'POST',
        headers: { 'user-agent': 'platform-webhooks/1', ...headers },
        body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      return { status: response.statusCode, error: null, excerpt: await excerptOf(response.body) };
    } catch (error) {
      return { status: null, error: describe(error, this.options.timeoutMs), excerpt: null };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  /** An IP literal is never looked up, so it is checked here. */
  private refusedAddress(url: string): string | null {
    if (this.options.allowPrivateNetworks) return null;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return isIP(host) !== 0 && !isPublicAddress(host) ? `address ${host} is not a public address` : null;
  }
}

/** DNS lookup refusing every name that resolves to a non-public address (also the key set fetch's). */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) {
      const denied: NodeJS.ErrnoException = new Error(
        `${hostname} resolves to ${refused.address}, not a public address`,
      );
      denied.code = 'EADDRNOTPUBLIC';
      return callback(denied, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}

async function excerptOf(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= WEBHOOK_RESPONSE_EXCERPT_BYTES) break; // leaving the loop destroys the body
  }
  if (size === 0) return null;
  return Buffer.concat(chunks).subarray(0, WEBHOOK_RESPONSE_EXCERPT_BYTES).toString('utf8');
}

/** A short cause for the delivery log: never the request, so never a signature. */
function describe(error: unknown, timeoutMs: number): string {
  const { name, code, message, cause } = error as {
    name?: string;
    code?: string;
    message?: string;
    cause?: unknown;
  };
  if (name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return `no answer within ${timeoutMs} ms`;
  }
  if (cause !== undefined) return describe(cause, timeoutMs);
  return code ? `${code}: ${message ?? ''}`.trim() : (message ?? 'the request failed');
}
