import { setTimeout as sleep } from 'node:timers/promises';
import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import type { JobDto, JobLogPageDto, JobPageDto, JobTransitionPageDto } from '@platform/contract';
import { LiveStreamAuthority, type LiveStreamEnd } from '@platform/domain';
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
import { TokenAuthorizer } from '../authorization/token-authorizer';
import { answerForCaller, callForCaller, tenantPath } from '../control-plane/caller-call';
import { ControlPlaneApi } from '../control-plane/control-plane-api';
import { SidecarError, type SidecarErrorCode } from '../errors';
import type { TokenRpc } from './rpc-authority';

/** How often a watch or a followed log looks for what is new at the control plane. */
const POLL_MS = 250;

/** What every call names: the caller's token, the tenant, and (but for submit and list) the job. */
type JobCall = Partial<Pick<GetJobRequest, 'token' | 'tenant' | 'id'>>;

/** An authorized caller: its claims and its tenant's jobs path at the control plane. */
interface JobCaller {
  claims: TokenClaims;
  path: string;
}

/**
 * `platform.jobs.v1.JobService` (docs/jobs.md): each RPC is allowed here as RPC_AUTHORITY
 * declares it (`jobs.write` / `jobs.read` on the tenant the request names, else the caller's);
 * the control plane owns the queue and is called with the caller as principal. Watches and
 * followed logs read the control plane every POLL_MS, so they see what any replica changed, and
 * run on the caller's token: they end at its expiry or revocation (LiveStreamAuthority).
 */
@Controller()
export class JobGrpcController {
  constructor(
    private readonly authorizer: TokenAuthorizer,
    private readonly controlPlane: ControlPlaneApi,
    private readonly streams: LiveStreamAuthority,
  ) {}

  @GrpcMethod('JobService', 'SubmitJob')
  async submit(request: Partial<SubmitJobRequest>) {
    const { claims, path } = await this.authorized('JobService/SubmitJob', request);
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
    const { claims, path } = await this.authorized('JobService/GetJob', request);
    return toJobMessage(
      (await callForCaller(this.controlPlane, claims, 'GET', `${path}/${this.idOf(request)}`)) as JobDto,
    );
  }

  @GrpcMethod('JobService', 'ListJobs')
  async list(request: Partial<ListJobsRequest>) {
    const { claims, path } = await this.authorized('JobService/ListJobs', request);
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
    const { claims, path } = await this.authorized('JobService/CancelJob', request);
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
    const { claims, path } = await this.authorized('JobService/GetJobOutput', request);
    const job = await callForCaller(this.controlPlane, claims, 'GET', `${path}/${this.idOf(request)}/output`);
    return toJobMessage(job as JobDto);
  }

  @GrpcMethod('JobService', 'WatchJob')
  watch(request: Partial<GetJobRequest>): Observable<unknown> {
    return this.live('JobService/WatchJob', request, async ({ claims, path }, send, open) => {
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
    return this.live('JobService/GetJobLogs', request, async ({ claims, path }, send, open) => {
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

  /** The caller's claims and its tenant's jobs path, once the RPC's declared authority allowed it. */
  private async authorized(rpc: TokenRpc, request: JobCall): Promise<JobCaller> {
    const { claims, tenant } = await this.authorizer.authorizeRpc(rpc, request);
    return { claims, path: `${tenantPath(tenant)}/jobs` };
  }

  /**
   * A server stream for an authorized caller, fed by `run`, which `send`s messages until it
   * returns; `open()` turns false once the caller has gone or the token's authority has ended
   * (expired, revoked, its app deleted, its user deprovisioned), which ends the stream with
   * UNAUTHENTICATED naming why.
   */
  private live(
    rpc: TokenRpc,
    request: JobCall,
    run: (caller: JobCaller, send: (message: unknown) => void, open: () => boolean) => Promise<void>,
  ): Observable<unknown> {
    return new Observable((subscriber) => {
      let open = true;
      let release = () => {};
      const stop = () => {
        open = false;
        release();
      };
      this.authorized(rpc, request)
        .then((caller) => {
          release = this.streams.hold(caller.claims, (reason) => {
            stop();
            subscriber.error(streamEnded(reason));
          });
          const send = (message: unknown) => subscriber.next(message);
          return open ? run(caller, send, () => open) : undefined;
        })
        .then(
          () => subscriber.complete(),
          (error: unknown) => subscriber.error(error),
        )
        .finally(() => release());
      return stop;
    });
  }

  private idOf(request: JobCall): string {
    if (!request.id) throw invalidArgument('id is required');
    return encodeURIComponent(request.id);
  }
}

const FINAL = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED', 'TIMED_OUT']);

/** How a stream whose token no longer holds ends: UNAUTHENTICATED (its token), the reason in the details. */
const ERROR_OF_END: Record<LiveStreamEnd, SidecarErrorCode> = {
  token_expired: 'token_expired',
  token_revoked: 'token_revoked',
  grant_revoked: 'token_revoked',
  app_deleted: 'token_revoked',
  user_deprovisioned: 'token_revoked',
  revocations_unavailable: 'not_ready',
  too_slow: 'not_ready',
};

function streamEnded(reason: LiveStreamEnd): SidecarError {
  return new SidecarError(ERROR_OF_END[reason], `stream ended: ${reason}`);
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
