import { Injectable, UnsupportedMediaTypeException } from '@nestjs/common';
import { BearerError, LiveStreamAuthority, type LiveStreamEnd, OAuthError } from '@platform/domain';
import { closeWithServer, headerValue, liveEndEvent, mediaType, type PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { CORRELATION_HEADER } from '@platform/telemetry';
import type { AuthenticatedRequest } from '../auth/bearer.guard';
import {
  ControlPlaneClient,
  type UpstreamResponse,
  type UpstreamStream,
} from '../clients/control-plane.client';
import { relayEvents } from './relay-events';

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const SCIM_TYPE = 'application/scim+json';

/** A public route that the control plane answers: where it goes and what the edge adds. */
export interface ForwardRoute {
  /** The control plane's path; `:name` segments take the route parameter of that name, encoded. */
  to: string;
  /**
   * The body the route takes, passed on as raw bytes: `form` (RFC 6749 section 3.2, else
   * `invalid_request`), `json` (else 415 problem+json) or `scim` (`application/scim+json` or
   * `application/json`, RFC 7644 section 3.1; passed on as the former).
   */
  body?: 'form' | 'json' | 'scim';
  /** Query parameters passed on; any other is dropped. */
  query?: readonly string[];
  /**
   * Extra headers for the control plane. The caller's Authorization header is passed on
   * unless `forwardAuthorization` is false (the route then names the caller by these headers).
   */
  upstreamHeaders?: (request: PlatformRequest) => Record<string, string>;
  forwardAuthorization?: boolean;
  /** Runs before the answer is sent: adjust its headers, apply a side effect of a success. */
  then?: (response: UpstreamResponse, request: PlatformRequest) => void | Promise<void>;
  /**
   * The control plane also serves the route live: a request accepting `text/event-stream`
   * gets the upstream Server-Sent Events passed through as they come (`Last-Event-ID` too),
   * for as long as the caller's token holds (LiveStreamAuthority: its expiry, its revocation),
   * then `event: end` says why. The route's guard must have named the caller (its claims).
   */
  live?: boolean;
  /**
   * The control plane holds the request until there is something to answer (a job to claim),
   * else answers 204: when the client leaves, or this server closes, the upstream request is
   * abandoned, so that neither the control plane nor a shutdown waits on it. Abandoned at close,
   * it is answered 204 here, the answer a client asks again after (at another replica).
   */
  longPoll?: boolean;
}

/**
 * The one forwarding mechanism of the backend: the control plane decides, the edge relays its
 * status, the relayable headers and the body bytes. Guards, the validation cache and the
 * browser flow stay in the backend; every plain route is a `ForwardRoute`.
 */
@Injectable()
export class ControlPlaneRelay {
  constructor(
    private readonly controlPlane: ControlPlaneClient,
    private readonly streams: LiveStreamAuthority,
  ) {}

  async forward(request: PlatformRequest, reply: FastifyReply, route: ForwardRoute): Promise<void> {
    if (route.live === true && headerValue(request.headers.accept)?.includes('text/event-stream')) {
      return this.relayStream(request, reply, route);
    }
    const body = route.body === undefined ? undefined : bodyOf(request, route.body);
    const authorization =
      route.forwardAuthorization === false ? undefined : headerValue(request.headers.authorization);
    const poll = route.longPoll === true ? abandonable(request, reply) : undefined;
    let response: UpstreamResponse;
    try {
      response = await this.controlPlane.request({
        method: request.method as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
        path: fillPath(route.to, request.params as Record<string, string>),
        ...(route.query !== undefined && {
          query: pick(request.query as Record<string, unknown>, route.query),
        }),
        ...(authorization !== undefined && { authorization }),
        ...(route.upstreamHeaders !== undefined && { headers: route.upstreamHeaders(request) }),
        ...(body !== undefined && {
          contentType: CONTENT_TYPES[route.body ?? 'json'],
          body,
        }),
        ...(poll !== undefined && { signal: poll.signal }),
      });
    } catch (error) {
      // Abandoned at this server's close: nothing came, and the client asks again elsewhere.
      if (poll?.closed !== true) throw error;
      await reply.status(204).send();
      return;
    }
    await this.answer(request, reply, response, route.then);
  }

  /** A token request (RFC 6749 section 3.2), through the TokenBatcher. */
  async forwardTokenRequest(
    request: PlatformRequest,
    reply: FastifyReply,
    then: ForwardRoute['then'],
  ): Promise<void> {
    const form = bodyOf(request, 'form');
    const proof = dpopHeader(request);
    const authorization = headerValue(request.headers.authorization);
    const response =
      proof === undefined
        ? await this.controlPlane.issueToken(form, authorization)
        : await this.controlPlane.issueToken(form, authorization, { proof, path: request.url.split('?')[0] });
    await this.answer(request, reply, response, then);
  }

  private async answer(
    request: PlatformRequest,
    reply: FastifyReply,
    response: UpstreamResponse,
    then: ForwardRoute['then'],
  ): Promise<void> {
    await then?.(response, request);
    void reply.status(response.status).headers(response.headers);
    await reply.send(response.body.length > 0 ? response.body : undefined);
  }

  private async relayStream(
    request: AuthenticatedRequest,
    reply: FastifyReply,
    route: ForwardRoute,
  ): Promise<void> {
    if (request.claims === undefined) throw new Error('a live route needs a guard that names the caller');
    const abort = new AbortController();
    let ended: LiveStreamEnd | undefined;
    const releaseAuthority = this.streams.hold(request.claims, (reason) => {
      ended = reason;
      abort.abort();
    });
    // The response closes when the client leaves (the request's own 'close' fired when its body
    // ended); listened to before the control plane is asked, so a client gone meanwhile is seen.
    const clientLeft = () => abort.abort();
    reply.raw.once('close', clientLeft);
    if (reply.raw.destroyed) clientLeft();
    let upstream: UpstreamStream;
    try {
      upstream = await this.controlPlane.stream(
        {
          method: 'GET',
          path: fillPath(route.to, request.params as Record<string, string>),
          ...(route.query !== undefined && {
            query: pick(request.query as Record<string, unknown>, route.query),
          }),
          ...(route.forwardAuthorization !== false && {
            authorization: headerValue(request.headers.authorization),
          }),
          ...(route.upstreamHeaders !== undefined && { headers: route.upstreamHeaders(request) }),
          lastEventId: headerValue(request.headers['last-event-id']),
        },
        abort.signal,
      );
    } catch (error) {
      releaseAuthority();
      // The client left while the control plane was asked: nobody to answer.
      if (reply.raw.destroyed) return;
      // The token expired or was revoked while the control plane was asked: refused as it now is.
      if (ended !== undefined)
        throw new BearerError('invalid_token', 'The access token is expired or revoked');
      throw error;
    }
    if (upstream.status !== 200) {
      releaseAuthority();
      // A refusal (bad filter, revoked token) is an ordinary answer: relay it whole.
      const body = Buffer.concat(await upstream.body.toArray());
      void reply.status(upstream.status).headers(upstream.headers);
      return reply.send(body.length > 0 ? body : undefined);
    }
    const releaseServer = closeWithServer(request.server, { close: () => abort.abort() });
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      [CORRELATION_HEADER]: request.id,
    });
    try {
      await relayEvents(upstream.body, reply.raw, abort.signal, releaseAuthority);
    } catch {
      // The client left, the control plane went away or the token's authority ended: it is over.
    } finally {
      releaseAuthority();
      releaseServer();
    }
    if (ended !== undefined && reply.raw.writable) reply.raw.write(liveEndEvent(ended));
    reply.raw.end();
  }
}

/**
 * A long poll is waiting, not working: it is abandoned when its client leaves before the answer
 * or when the server closes (`closed`: the client then asks another replica).
 */
function abandonable(
  request: PlatformRequest,
  reply: FastifyReply,
): { signal: AbortSignal; closed: boolean } {
  const abandon = new AbortController();
  const poll = { signal: abandon.signal, closed: false };
  const release = closeWithServer(request.server, {
    close: () => {
      poll.closed = true;
      abandon.abort();
    },
  });
  reply.raw.once('close', () => {
    release();
    if (!reply.raw.writableFinished) abandon.abort();
  });
  return poll;
}

const CONTENT_TYPES = { form: FORM, json: JSON_TYPE, scim: SCIM_TYPE } as const;

function bodyOf(request: PlatformRequest, kind: 'form' | 'json' | 'scim'): string {
  if (kind === 'form' && mediaType(request) !== FORM) {
    throw new OAuthError('invalid_request', `The request body must be ${FORM}`);
  }
  if (kind === 'json' && mediaType(request) !== JSON_TYPE) {
    throw new UnsupportedMediaTypeException(`The request body must be ${JSON_TYPE}`);
  }
  if (kind === 'scim' && mediaType(request) !== SCIM_TYPE && mediaType(request) !== JSON_TYPE) {
    throw new UnsupportedMediaTypeException(`The request body must be ${SCIM_TYPE}`);
  }
  return request.rawBody ?? '';
}

function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/:([A-Za-z_]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

function pick(query: Record<string, unknown> = {}, names: readonly string[]): URLSearchParams {
  const picked = new URLSearchParams();
  for (const name of names) {
    const value = query[name];
    if (typeof value === 'string') picked.set(name, value);
  }
  return picked;
}

/** The one `DPoP` header of a request (RFC 9449 section 4.3: exactly one); two are refused. */
export function dpopHeader(request: Pick<PlatformRequest, 'headers'>): string | undefined {
  const value = request.headers.dpop;
  if (Array.isArray(value)) throw new OAuthError('invalid_dpop_proof', 'send one DPoP header');
  return value;
}
