import type { Readable } from 'node:stream';
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { INTERNAL_OAUTH_OPERATIONS, internalPathOf } from '@platform/contract';
import { DomainError } from '@platform/domain';
import { ControlPlaneConnection, INTROSPECTION_REACH_HEADER } from '@platform/internal';
import { TokenBatcher, type TokenRequestDpop } from './token-batcher';

const TOKEN_BATCH_PATH = `/${internalPathOf(INTERNAL_OAUTH_OPERATIONS.tokenBatch)}`;

/** One call to the control plane. `path` is absolute (`/api/v1/apps`), `query` is appended. */
export interface UpstreamRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: URLSearchParams;
  /** The caller's Authorization header, passed through verbatim when present. */
  authorization?: string;
  contentType?: string;
  body?: string;
  /** Further internal headers (`x-platform-principal`); never the caller's own. */
  headers?: Record<string, string>;
  /**
   * The route itself answers 401 problem+json about something the caller sent (a browser
   * session that is unknown or expired), so a 401 is relayed instead of being read as the
   * control plane refusing our internal token.
   */
  answersUnauthorized?: boolean;
  /** Abandons the request (its caller went away). */
  signal?: AbortSignal;
}

/** The control plane's answer: status, the headers the backend may relay, the body bytes. */
export interface UpstreamResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A live feed's answer: its status and, while it lasts, the event stream's bytes. */
export interface UpstreamStream {
  status: number;
  headers: Record<string, string>;
  body: Readable;
}

/** A live feed sends a heartbeat every 15 s; three missed and the stream is dead. */
const STREAM_IDLE_TIMEOUT_MS = 45_000;

/** Headers of a control-plane answer that reach the client; everything else stays internal. */
const RELAYED_HEADERS = [
  'content-type',
  'cache-control',
  'pragma',
  'www-authenticate',
  'link',
  'location',
  'etag',
  // A quota used up (429) says until when (docs/plans.md).
  'retry-after',
  // Read and dropped by the introspection route (LocalIntrospection); never reaches the caller.
  INTROSPECTION_REACH_HEADER,
] as const;

const TIMEOUT_MS = 10_000;

/**
 * The control plane as the backend relays to it (over the shared ControlPlaneConnection, which
 * adds the internal token and the correlation id). Unreachable, timed out, or refusing our
 * internal token: DomainError `unavailable` (503; temporarily_unavailable on OAuth routes).
 */
@Injectable()
export class ControlPlaneClient implements OnApplicationShutdown {
  private readonly logger = new Logger(ControlPlaneClient.name);
  private readonly connection: ControlPlaneConnection;
  private readonly tokens: TokenBatcher;

  constructor(baseUrl: string, internalToken: string) {
    this.connection = new ControlPlaneConnection(baseUrl, internalToken, {
      connections: 64,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    this.tokens = new TokenBatcher((body) =>
      this.request({ method: 'POST', path: TOKEN_BATCH_PATH, contentType: 'application/json', body }),
    );
  }

  /** The answer to a client's token request (form body and Authorization header, verbatim). */
  issueToken(
    form: string,
    authorization: string | undefined,
    dpop?: TokenRequestDpop,
  ): Promise<UpstreamResponse> {
    return this.tokens.issue(form, authorization, dpop);
  }

  async request(call: UpstreamRequest): Promise<UpstreamResponse> {
    const query = call.query?.toString();
    const headers = upstreamHeaders(call, 'application/json');

    let response: UpstreamResponse;
    try {
      const answer = await this.connection.request({
        method: call.method,
        path: `${call.path}${query ? `?${query}` : ''}`,
        headers,
        body: call.body,
        signal: call.signal,
      });
      const body = Buffer.from(await answer.body.arrayBuffer());
      response = { status: answer.statusCode, headers: pickHeaders(answer.headers), body };
    } catch (error) {
      // Abandoned: the caller has gone, and the answer below reaches no one.
      if (call.signal?.aborted !== true) {
        this.logger.warn(
          `control plane unreachable: ${(error as Error).name} ${(error as { code?: string }).code ?? ''}`.trim(),
        );
      }
      throw new DomainError('unavailable', 'The control plane is unavailable');
    }
    if (
      response.status === 401 &&
      call.path.startsWith('/internal/') &&
      call.answersUnauthorized !== true &&
      response.headers['content-type']?.startsWith('application/problem+json')
    ) {
      this.logger.error(
        'control plane refused the internal token (INTERNAL_TOKEN differs between processes)',
      );
      throw new DomainError('unavailable', 'The control plane is unavailable');
    }
    return response;
  }

  /**
   * A live feed (Server-Sent Events) of the control plane, resumed after `lastEventId` when
   * given. The stream lasts until the control plane ends it or `signal` aborts.
   */
  async stream(
    call: UpstreamRequest & { lastEventId?: string },
    signal: AbortSignal,
  ): Promise<UpstreamStream> {
    const query = call.query?.toString();
    const headers = upstreamHeaders(call, 'text/event-stream');
    if (call.lastEventId !== undefined) headers['last-event-id'] = call.lastEventId;
    try {
      const answer = await this.connection.request({
        method: 'GET',
        path: `${call.path}${query ? `?${query}` : ''}`,
        headers,
        signal,
        bodyTimeout: STREAM_IDLE_TIMEOUT_MS,
      });
      return { status: answer.statusCode, headers: pickHeaders(answer.headers), body: answer.body };
    } catch (error) {
      this.logger.warn(`control plane unreachable: ${(error as Error).name}`);
      throw new DomainError('unavailable', 'The control plane is unavailable');
    }
  }

  /** After the server has closed: the drain and the requests in flight still reach the control plane. */
  async onApplicationShutdown(): Promise<void> {
    await this.tokens.drained();
    await this.connection.close();
  }
}

function upstreamHeaders(call: UpstreamRequest, accept: string): Record<string, string> {
  const headers: Record<string, string> = { ...call.headers, accept };
  if (call.authorization !== undefined) headers.authorization = call.authorization;
  if (call.contentType !== undefined) headers['content-type'] = call.contentType;
  return headers;
}

function pickHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of RELAYED_HEADERS) {
    const value = headers[name];
    if (value !== undefined) picked[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return picked;
}
