import { isIP } from 'node:net';
import { checkWebhookUrl, isPublicAddress, type KeySetFetch } from '@platform/domain';
import { Agent, request } from 'undici';
import { publicOnlyLookup } from '../webhooks/http-webhook-sender';

/** A key set or discovery document larger than this is refused. */
export const KEY_SET_MAX_BYTES = 65_536;

export interface KeySetFetchOptions {
  timeoutMs: number;
  /** false (production): `https` to public addresses only, checked at every connection (the webhooks' rule). */
  allowPrivateNetworks: boolean;
}

/**
 * GETs the JWK sets of private_key_jwt clients and federated issuers (and issuers' discovery
 * documents) under the webhooks' address rules (`checkWebhookUrl`, and `publicOnlyLookup` at
 * every connection, so DNS rebinding cannot point a registered name inwards): no redirects
 * followed, bounded in time and in size. Answers as the WHATWG fetch does, for jose.
 */
export class HttpKeySetFetch {
  private readonly agent: Agent;

  constructor(private readonly options: KeySetFetchOptions) {
    this.agent = new Agent({
      connect: options.allowPrivateNetworks ? {} : { lookup: publicOnlyLookup },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connections: 4,
    });
  }

  readonly fetch: KeySetFetch = async (url, init) => {
    const policy = { allowPrivateNetworks: this.options.allowPrivateNetworks };
    const host = checkWebhookUrl(url, policy).hostname.replace(/^\[|\]$/g, '');
    if (!policy.allowPrivateNetworks && isIP(host) !== 0 && !isPublicAddress(host)) {
      throw new Error(`address ${host} is not a public address`);
    }
    const response = await request(url, {
      method: 'GET',
      headers: { 'user-agent': 'platform-keys/1', accept: 'application/json' },
      dispatcher: this.agent,
      signal: init.signal ?? AbortSignal.timeout(this.options.timeoutMs),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > KEY_SET_MAX_BYTES) {
        response.body.destroy();
        throw new Error(`the answer of ${new URL(url).host} is larger than ${KEY_SET_MAX_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
    const bodiless = [204, 205, 304].includes(response.statusCode);
    return new Response(bodiless ? null : Buffer.concat(chunks).toString('utf8'), {
      status: response.statusCode,
      headers: { 'content-type': 'application/json' },
    });
  };

  close(): Promise<void> {
    return this.agent.close();
  }
}
