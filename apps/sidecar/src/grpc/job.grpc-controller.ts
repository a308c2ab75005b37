import { setTimeout as sleep } from 'node:timers/promises';
import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import type { JobDto, JobLogPageDto, JobPageDto, JobTransitionPageDto } from '@platform/contract';
import type {
  GetJobLogsRequest,
  GetJobRequest,
  JobMessage as Job,
  ListJobsRequest,
  SubmitJobRequest,
  TokenClaims,
} from '@platform/grpc';
import { Observable } from 'rxjs';
import { invalidArgument } from '../authorization/authorization.error';
import { tenantOfCall } from '../authorization/principals';
import { TokenAuthorizer } from '../authorization/token-authorizer';
import { answerForCaller, callForCaller, tenantPath } from '../control-plane/caller-call';
import { ControlPlaneApi } from '../control-plane/control-plane-api';
import { TokenClaimsReader } from './token-claims.reader';

/** How often a watch or a followed log looks for what is new at the control plane. */
const POLL_MS = 250;

/** What every call names: the caller's token, the tenant, and (but for submit and list) the job. */
type JobCall = Partial<Pick<GetJobRequest, 'token' | 'tenant' | 'id'>>;

/**
 * `platform.jobs.v1.JobService` (docs/jobs.md): the policy service decides `jobs.write` /
 * `jobs.read` on the job's tenant here; the control plane owns the queue and is called with
 * the caller as principal. Watches and followed logs read the control plane every POLL_MS, so
 * they see what any replica changed.
 */
@Controller()
export class JobGrpcController {
  constructor(
    private readonly tokens: TokenClaimsReader,
    private readonly authorizer: TokenAuthorizer,
    private readonly controlPlane: ControlPlaneApi,
  ) {}

  @GrpcMethod('JobService', 'SubmitJob')
  async submit(request: Partial<SubmitJobRequest>) {
    const { claims, path } = await this.authorized(request, 'jobs.write');
    const body = {
      type: request.type ?? '',
      payload: jsonOf(String(request.payload_json ?? ''), 'payload_json'),
      ...(request.idempotency_key !== '' && { idempotency_key: request.idempotency_key }),
      ...(request.timeout_seconds !== 0 && { timeout_seconds: request.timeout_seconds }),
      ...(request.max_attempts !== 0 && { max_attempts: request.max_attempts }),
      ...(request.initial_backoff_seconds !== undefined &&
        request.initial_backoff_seconds !== null && {
          initial_backoff_seconds: request.initial_backoff_seconds,
        }),
      ...(request.max_backoff_seconds !== undefined &&
        request.max_backoff_seconds !== null && {
          max_backoff_seconds: request.max_backoff_seconds,
        }),
    };
    // 201: a new job; 200: the job an earlier submission with the same key made.
    const { status, body: job } = await answerForCaller(this.controlPlane, claims, 'POST', path, body);
    return { job: toJobMessage(job as JobDto), created: status === 201 };
  }

  @GrpcMethod('JobService', 'GetJob')
  async get(request: Partial<GetJobRequest>): Promise<Job> {
    const { claims, path } = await this.authorized(request, 'jobs.read');
    return toJobMessage(
      (await callForCaller(this.controlPlane, claims, 'GET', `${path}/${this.idOf(request)}`)) as JobDto,
    );
  }

  @GrpcMethod('JobService', 'ListJobs')
  async list(request: Partial<ListJobsRequest>) {
    const { claims, path } = await this.authorized(request, 'jobs.read');
    const query = new URLSearchParams();
    if (request.state && request.state !== 'JOB_STATE_UNSPECIFIED') query.set('state', request.state);
    if (request.type) query.set('type', request.type);
    if (request.after) query.set('after', request.after);
    if (request.limit) query.set('limit', String(request.limit));
    const page = (await callForCaller(this.controlPlane, claims, 'GET', `${path}?${query}`)) as JobPageDto;
    return { jobs: page.jobs.map(toJobMessage), next_after: page.next_after ?? '' };
  }

  @GrpcMethod('JobService', 'CancelJob')
  async cancel(request: Partial<GetJobRequest>): Promise<Job> {
    const { claims, path } = await this.authorized(request, 'jobs.write');
    const job = await callForCaller(
      this.controlPlane,
      claims,
      'POST',
      `${path}/${this.idOf(request)}/cancel`,
    );
    return toJobMessage(job as JobDto);
  }

  @GrpcMethod('JobService', 'GetJobOutput')
  async output(request: Partial<GetJobRequest>): Promise<Job> {
    const { claims, path } = await this.authorized(request, 'jobs.read');
    const job = await callForCaller(this.controlPlane, claims, 'GET', `${path}/${this.idOf(request)}/output`);
    return toJobMessage(job as JobDto);
  }

  @GrpcMethod('JobService', 'WatchJob')
  watch(request: Partial<GetJobRequest>): Observable<unknown> {
    return polling(async (send, open) => {
      const { claims, path } = await this.authorized(request, 'jobs.read');
      const job = `${path}/${this.idOf(request)}`;
      const read = async (after: number) =>
        (await callForCaller(
          this.controlPlane,
          claims,
          'GET',
          `${job}/transitions?after=${after}`,
        )) as JobTransitionPageDto;
      // The current state first: the latest transition so far.
      let page = await read(0);
      let cursor = page.next_after;
      const current = page.transitions.at(-1);
      if (current) send({ state: current.state, attempt: current.attempt, at: current.at });
      let ended = current !== undefined && FINAL.has(current.state);
      while (!ended && open()) {
        await sleep(POLL_MS);
        page = await read(cursor);
        cursor = page.next_after;
        for (const transition of page.transitions) {
          send({ state: transition.state, attempt: transition.attempt, at: transition.at });
          ended ||= FINAL.has(transition.state);
        }
      }
    });
  }

  @GrpcMethod('JobService', 'GetJobLogs')
  logs(request: Partial<GetJobLogsRequest>): Observable<unknown> {
    return polling(async (send, open) => {
      const { claims, path } = await this.authorized(request, 'jobs.read');
      const job = `${path}/${this.idOf(request)}`;
      const limit = request.limit || 100;
      let cursor = Number(request.after ?? 0);
      for (;;) {
        const page = (await callForCaller(
          this.controlPlane,
          claims,
          'GET',
          `${job}/logs?after=${cursor}&limit=${limit}`,
        )) as JobLogPageDto;
        cursor = page.next_after;
        if (page.lines.length > 0 || page.done || !request.follow) {
          send({
            lines: page.lines.map(({ attempt, at, line }) => ({ attempt, at, line })),
            next_after: cursor,
            done: page.done,
          });
        }
        if (page.done || !open() || (!request.follow && page.lines.length < limit)) return;
        if (page.lines.length < limit) await sleep(POLL_MS);
      }
    });
  }

  /** The caller's claims and its tenant's jobs path, once the policy allowed `action` there. */
  private async authorized(request: JobCall, action: string): Promise<{ claims: TokenClaims; path: string }> {
    const token = request.token ?? '';
    const tenant = tenantOfCall(await this.tokens.read(token), request.tenant ?? '');
    const { claims } = await this.authorizer.authorize(token, action, tenant);
    return { claims, path: `${tenantPath(tenant)}/jobs` };
  }

  private idOf(request: JobCall): string {
    if (!request.id) throw invalidArgument('id is required');
    return encodeURIComponent(request.id);
  }
}

const FINAL = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED', 'TIMED_OUT']);

/**
 * A server stream fed by `run`, which `send`s messages until it returns; `open()` turns false
 * once the caller has gone, so the loop stops polling for it.
 */
function polling(
  run: (send: (message: unknown) => void, open: () => boolean) => Promise<void>,
): Observable<unknown> {
  return new Observable((subscriber) => {
    let open = true;
    run(
      (message) => subscriber.next(message),
      () => open,
    ).then(
      () => subscriber.complete(),
      (error: unknown) => subscriber.error(error),
    );
    return () => {
      open = false;
    };
  });
}

function jsonOf(json: string, field: string): unknown {
  if (json === '') return null;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    throw invalidArgument(`${field} is not JSON`);
  }
}

function toJobMessage(job: JobDto): Job {
  return {
    id: job.id,
    tenant: job.tenant,
    type: job.type,
    state: job.state as Job['state'],
    done: job.done,
    payload_json: JSON.stringify(job.payload ?? null),
    idempotency_key: job.idempotency_key ?? '',
    submitted_by: job.submitted_by,
    attempt: job.attempt,
    max_attempts: job.max_attempts,
    timeout_seconds: job.timeout_seconds,
    run_after: job.run_after,
    worker: job.worker ?? '',
    lease_expires_at: job.lease_expires_at ?? '',
    output_json: job.output === undefined ? '' : JSON.stringify(job.output),
    error: job.error,
    created_at: job.created_at,
    updated_at: job.updated_at,
    finished_at: job.finished_at ?? '',
  };
}
