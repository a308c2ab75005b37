import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { TokenBatchAnswerDto, TokenBatchAnswersDto } from '@platform/contract';
import { DomainError, GroupCommit } from '@platform/domain';
import {
  TOKEN_BATCH_MAX_REQUESTS,
  TOKEN_BATCH_TARGET_BYTES,
  type TokenBatchRequestDto,
} from '@platform/internal';
import { correlationId, traceContextHeaders } from '@platform/telemetry';
import type { UpstreamResponse } from './control-plane.client';
import { KnownCredentials } from './known-credentials';

/** A token request's DPoP proof (RFC 9449) and the path it was sent to (its `htu`'s). */
export interface TokenRequestDpop {
  proof: string;
  path: string;
}

/** Token batches out at once; the requests that arrive meanwhile wait to leave together. */
const BATCHES_IN_FLIGHT = 2;
/**
 * Requests with credentials not yet known to succeed, out at once, each alone. More than the
 * control plane lets wait for argon2 (ARGON2_CONCURRENCY x 5, 10 by default; past that it
 * answers 503 at once), few enough that a flood of them leaves most of the connection pool's 64
 * to the batches and the other calls.
 */
const SINGLES_IN_FLIGHT = 16;

/**
 * Token requests go to the control plane in batches (`POST /internal/v1/oauth/token-batch`), by
 * group commit: whatever arrived during one turn of the event loop leaves together at the next,
 * and while two batches are out, the requests that arrive wait and leave together when one comes
 * back. A request alone leaves at the next turn, so batching costs a lone client nothing; under
 * load the control plane pays its HTTP and framework work once per batch instead of once per
 * token (docs/performance.md). A batch is answered when its slowest request is, so only requests
 * whose credentials already won a token here (KnownCredentials), or that present no secret,
 * share batches; the others, which may cost an argon2 run of about a second (a wrong secret),
 * each go alone. Each request keeps its correlation id and its trace; a failed batch fails each
 * of its requests as the control plane being unavailable.
 */
export class TokenBatcher {
  private readonly logger = new Logger(TokenBatcher.name);
  private readonly batches: GroupCommit<string, UpstreamResponse>;
  private readonly singles: GroupCommit<string, UpstreamResponse>;
  private readonly credentials = new KnownCredentials();

  constructor(private readonly send: (body: string) => Promise<UpstreamResponse>) {
    // Bound to the context the batcher is built in: a batch serves many requests, so it must
    // not carry the correlation id or the trace of whichever request happened to start it.
    const sendBatch = AsyncResource.bind((requests: string[]) => this.sendBatch(requests));
    this.batches = new GroupCommit(sendBatch, {
      concurrency: BATCHES_IN_FLIGHT,
      maxItems: TOKEN_BATCH_MAX_REQUESTS,
      size: { of: (json) => json.length + 1, max: TOKEN_BATCH_TARGET_BYTES },
    });
    this.singles = new GroupCommit(sendBatch, { concurrency: SINGLES_IN_FLIGHT, maxItems: 1 });
  }

  /**
   * The control plane's answer to one token request, as if it had gone alone. Its span there is
   * a child of this request's own span; the call that carries the batch is traced on its own.
   */
  async issue(
    form: string,
    authorization: string | undefined,
    dpop?: TokenRequestDpop,
  ): Promise<UpstreamResponse> {
    const request: TokenBatchRequestDto = {
      form,
      ...(authorization !== undefined && { authorization }),
      ...(dpop !== undefined && { dpop: dpop.proof, dpop_path: dpop.path }),
      request_id: correlationId() ?? randomUUID(),
      ...traceContextHeaders(),
    };
    const credentials = this.credentials.of(form, authorization);
    if (credentials === undefined) return this.batches.submit(JSON.stringify(request));
    const known = this.credentials.has(credentials);
    const answer = await (known ? this.batches : this.singles).submit(JSON.stringify(request));
    this.credentials.settle(credentials, answer.status);
    return answer;
  }

  /** Resolves once every request handed over has been answered. */
  async drained(): Promise<void> {
    await Promise.all([this.batches.drained(), this.singles.drained()]);
  }

  private async sendBatch(requests: string[]): Promise<UpstreamResponse[]> {
    const response = await this.send(`{"requests":[${requests.join(',')}]}`);
    const answers = response.status === 200 ? answersIn(response.body) : undefined;
    if (answers?.length !== requests.length) {
      // Our own processes disagree (a version skew during a rollout): no client is to blame.
      this.logger.error(
        `control plane answered a batch of ${requests.length} token requests with ${response.status}`,
      );
      throw new DomainError('unavailable', 'The control plane is unavailable');
    }
    return answers.map(({ status, headers, body }) => ({
      status,
      headers,
      body: Buffer.from(JSON.stringify(body)),
    }));
  }
}

function answersIn(body: Buffer): TokenBatchAnswerDto[] | undefined {
  try {
    const { answers } = JSON.parse(body.toString()) as TokenBatchAnswersDto;
    return Array.isArray(answers) ? answers : undefined;
  } catch {
    return undefined;
  }
}
