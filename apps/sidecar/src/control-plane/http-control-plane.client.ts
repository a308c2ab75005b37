import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  INTERNAL_QUOTA_OPERATIONS,
  internalPathOf,
  REVOCATION_FEED_OPERATIONS,
  type QuotaAnswerDto,
  type QuotaConsumptionDto,
  type QuotaConsumptionsDto,
  type TrustedRevocationDto,
} from '@platform/contract';
import { ControlPlaneConnection, PRINCIPAL_HEADER } from '@platform/internal';
import type { Dispatcher } from 'undici';
import { SIDECAR_CONFIG, type SidecarConfig } from '../config/sidecar-config';
import { SidecarError } from '../errors';
import { ControlPlaneApi } from './control-plane-api';
import {
  parseJsonWebKeySet,
  parseQuotaAnswers,
  parseRevocationEntry,
  parseRevocationPage,
  parseDefinitionChange,
  parseDefinitionPage,
  type DefinitionPage,
  type JsonWebKeySet,
  type RevocationPage,
} from './control-plane.types';
import { type DefinitionChange, GroupCommit, type RevocationEntry } from '@platform/domain';
import { parseServerSentEvents } from './server-sent-events';

/** The control plane sends `: ping` every 15 s; three missed pings and the stream is dead. */
const STREAM_IDLE_TIMEOUT_MS = 45_000;
const REQUEST_TIMEOUT_MS = 10_000;
/** The control plane's bound on one request's consumptions. */
const MAX_CONSUMPTIONS_PER_REQUEST = 1_000;
/** JSON answers larger than this are refused rather than buffered. */
const MAX_JSON_BYTES = 32 * 1024 * 1024;

type Method = 'GET' | 'POST';

/** The control plane over the shared ControlPlaneConnection (internal token, correlation id). */
@Injectable()
export class HttpControlPlaneClient extends ControlPlaneApi implements OnApplicationShutdown {
  private readonly connection: ControlPlaneConnection;
  /**
   * The quota consumptions of a turn of the event loop, in one request (ConsumeQuota when no
   * Redis counts, docs/plans.md): two requests in flight at most, the rest gather meanwhile.
   */
  private readonly consumptions = new GroupCommit<QuotaConsumptionDto, QuotaAnswerDto>(
    (batch) => this.consumeQuotas(batch),
    { concurrency: 2, maxItems: MAX_CONSUMPTIONS_PER_REQUEST },
  );

  constructor(@Inject(SIDECAR_CONFIG) config: SidecarConfig) {
    super();
    this.connection = new ControlPlaneConnection(config.controlPlaneUrl, config.internalToken, {
      connections: 8,
      pipelining: 1,
      keepAliveMaxTimeout: 120_000,
      connect: { timeout: 5_000 },
    });
  }

  async fetchJwks(): Promise<JsonWebKeySet> {
    const body = await this.json('GET', '/api/v1/jwks');
    return parseJsonWebKeySet(body) ?? this.unreadable('/api/v1/jwks');
  }

  async fetchActiveRevocations(): Promise<RevocationPage> {
    const path = `/${internalPathOf(REVOCATION_FEED_OPERATIONS.active)}`;
    return parseRevocationPage(await this.json('GET', path)) ?? this.unreadable(path);
  }

  async fetchRevocationsAfter(afterSeq: number, limit: number): Promise<RevocationPage> {
    const path = `/${internalPathOf(REVOCATION_FEED_OPERATIONS.after)}`;
    const body = await this.json('GET', `${path}?after=${afterSeq}&limit=${limit}`);
    return parseRevocationPage(body) ?? this.unreadable(path);
  }

  async fetchDefinitionsAfter(afterSeq: number, limit: number): Promise<DefinitionPage> {
    const path = `/internal/v1/definitions?after=${afterSeq}&limit=${limit}`;
    return parseDefinitionPage(await this.json('GET', path)) ?? this.unreadable('/internal/v1/definitions');
  }

  async revokeAccessToken(token: string): Promise<{ revoked: boolean }> {
    const body = await this.json('POST', `/${internalPathOf(REVOCATION_FEED_OPERATIONS.revoke)}`, {
      token,
    } satisfies TrustedRevocationDto);
    const revoked =
      typeof body === 'object' && body !== null && (body as { revoked?: unknown }).revoked === true;
    return { revoked };
  }

  consumeQuota(consumption: QuotaConsumptionDto): Promise<QuotaAnswerDto> {
    return this.consumptions.submit(consumption);
  }

  /** One request for the consumptions that arrive together (and while one is on its way). */
  private async consumeQuotas(consumptions: QuotaConsumptionDto[]): Promise<QuotaAnswerDto[]> {
    const path = `/${internalPathOf(INTERNAL_QUOTA_OPERATIONS.consumeMany)}`;
    const body = await this.json('POST', path, { consumptions } satisfies QuotaConsumptionsDto);
    return parseQuotaAnswers(body, consumptions.length) ?? this.unreadable(path);
  }

  async callAsPrincipal(
    method: Method,
    path: string,
    principal: string,
    payload?: unknown,
  ): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = { accept: 'application/json', [PRINCIPAL_HEADER]: principal };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const body = payload === undefined ? undefined : JSON.stringify(payload);
    const response = await this.send(method, path, headers, body, { bodyTimeout: REQUEST_TIMEOUT_MS });
    const route = path.split('?')[0];
    if (response.statusCode >= 500) {
      await response.body.dump();
      throw this.statusError(response.statusCode, route);
    }
    try {
      return { status: response.statusCode, body: await response.body.json() };
    } catch {
      return this.unreadable(route);
    }
  }

  streamRevocations(
    afterSeq: number,
    signal: AbortSignal,
    onOpen?: () => void,
  ): AsyncGenerator<RevocationEntry> {
    return this.streamEvents(
      `/${internalPathOf(REVOCATION_FEED_OPERATIONS.stream)}`,
      afterSeq,
      parseRevocationEntry,
      signal,
      onOpen,
    );
  }

  streamDefinitions(
    afterSeq: number,
    signal: AbortSignal,
    onOpen?: () => void,
  ): AsyncGenerator<DefinitionChange> {
    return this.streamEvents(
      '/internal/v1/definitions/stream',
      afterSeq,
      parseDefinitionChange,
      signal,
      onOpen,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.connection.destroy();
  }

  /** A feed's Server-Sent Events from `afterSeq`; events `parse` cannot read are skipped. */
  private async *streamEvents<T>(
    route: string,
    afterSeq: number,
    parse: (body: unknown) => T | undefined,
    signal: AbortSignal,
    onOpen?: () => void,
  ): AsyncGenerator<T> {
    const response = await this.send(
      'GET',
      `${route}?after=${afterSeq}`,
      { accept: 'text/event-stream' },
      undefined,
      {
        signal,
        bodyTimeout: STREAM_IDLE_TIMEOUT_MS,
      },
    );
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw this.statusError(response.statusCode, route);
    }
    onOpen?.();
    for await (const event of parseServerSentEvents(response.body)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(event.data);
      } catch {
        continue;
      }
      const entry = parse(parsed);
      if (entry) yield entry;
    }
  }

  private async json(method: Method, path: string, payload?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json' };
    let body: string | undefined;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(payload);
    }
    const response = await this.send(method, path, headers, body, { bodyTimeout: REQUEST_TIMEOUT_MS });
    if (response.statusCode < 200 || response.statusCode >= 300) {
      await response.body.dump();
      throw this.statusError(response.statusCode, path.split('?')[0]);
    }
    const length = Number(response.headers['content-length'] ?? 0);
    if (length > MAX_JSON_BYTES) {
      await response.body.dump();
      return this.unreadable(path.split('?')[0]);
    }
    try {
      return await response.body.json();
    } catch {
      return this.unreadable(path.split('?')[0]);
    }
  }

  private async send(
    method: Method,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    options: { signal?: AbortSignal; bodyTimeout: number },
  ): Promise<Dispatcher.ResponseData> {
    try {
      return await this.connection.request({
        method,
        path,
        headers,
        body,
        signal: options.signal,
        headersTimeout: REQUEST_TIMEOUT_MS,
        bodyTimeout: options.bodyTimeout,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const code = (error as { code?: unknown }).code;
      throw new SidecarError(
        'control_plane_unavailable',
        `control plane unreachable (${typeof code === 'string' ? code : (error as Error).name})`,
      );
    }
  }

  private statusError(status: number, path: string): SidecarError {
    return status >= 500
      ? new SidecarError('control_plane_unavailable', `control plane answered ${status} on ${path}`)
      : new SidecarError('control_plane_rejected', `control plane answered ${status} on ${path}`);
  }

  private unreadable(path: string): never {
    throw new SidecarError('control_plane_rejected', `control plane sent an unreadable answer on ${path}`);
  }
}
