import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { DomainError, GroupCommit } from '@platform/domain';
import {
  TOKEN_BATCH_MAX_REQUESTS,
  TOKEN_BATCH_TARGET_BYTES,
  type TokenBatchAnswer,
  type TokenBatchAnswers,
  type TokenBatchRequestDto,
} from '@platform/internal';
import { correlationId, traceContextHeaders } from '@platform/telemetry';
import type { UpstreamResponse } from './control-plane.client';

/** Token batches out at once; the requests that arrive meanwhile wait to leave together. */
const BATCHES_IN_FLIGHT = 2;

/**
 * Token requests go to the control plane in batches (`POST /internal/v1/oauth/token-batch`), by
 * group commit: whatever arrived during one turn of the event loop leaves together at the next,
 * and while two batches are out, the requests that arrive wait and leave together when one comes
 * back. A request alone leaves at the next turn, so batching costs a lone client nothing; under
 * load the control plane pays its HTTP and framework work once per batch instead of once per
 * token (docs/performance.md). Each request keeps its correlation id and its trace; a failed
 * batch fails each of its requests as the control plane being unavailable.
 */
export class TokenBatcher {
  private readonly logger = new Logger(TokenBatcher.name);
  private readonly batches: GroupCommit<string, UpstreamResponse>;

  constructor(private readonly send: (body: string) => Promise<UpstreamResponse>) {
    // Bound to the context the batcher is built in: a batch serves many requests, so it must
    // not carry the correlation id or the trace of whichever request happened to start it.
    const sendBatch = AsyncResource.bind((requests: string[]) => this.sendBatch(requests));
    this.batches = new GroupCommit(sendBatch, {
      concurrency: BATCHES_IN_FLIGHT,
      maxItems: TOKEN_BATCH_MAX_REQUESTS,
      size: { of: (json) => json.length + 1, max: TOKEN_BATCH_TARGET_BYTES },
    });
  }

  /**
   * The control plane's answer to one token request, as if it had gone alone. Its span there is
   * a child of this request's own span; the call that carries the batch is traced on its own.
   */
  issue(form: string, authorization: string | undefined): Promise<UpstreamResponse> {
    const request: TokenBatchRequestDto = {
      form,
      ...(authorization !== undefined && { authorization }),
      request_id: correlationId() ?? randomUUID(),
      ...traceContextHeaders(),
    };
    return this.batches.submit(JSON.stringify(request));
  }

  /** Resolves once every request handed over has been answered. */
  drained(): Promise<void> {
    return this.batches.drained();
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

function answersIn(body: Buffer): TokenBatchAnswer[] | undefined {
  try {
    const { answers } = JSON.parse(body.toString()) as TokenBatchAnswers;
    return Array.isArray(answers) ? answers : undefined;
  } catch {
    return undefined;
  }
}
