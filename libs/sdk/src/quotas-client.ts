import { status, type ServiceError } from '@grpc/grpc-js';
import type { Timestamp__Output } from './generated/grpc/google/protobuf/Timestamp';
import type { QuotaAnswer__Output } from './generated/grpc/platform/quotas/v1/QuotaAnswer';
import type { QuotaServiceClient } from './generated/grpc/platform/quotas/v1/QuotaService';
import type { ProtoGrpcType } from './generated/grpc/quotas';
import { retryDelayOf } from './retry-info';
import { sidecarClient, sidecarPackage, unary, type SidecarClientOptions } from './sidecar';

/** A meter's quota and count in the window in progress, as the sidecar answers. */
export type QuotaStatus =
  /** No quota of the tenant's plan limits the meter: nothing was counted. */
  | { limited: false; granted: true }
  | {
      limited: true;
      /** consume: the units were counted. usage: one more unit would be granted now. */
      granted: boolean;
      /** A retry whose idempotency key was already counted: its first count, nothing counted again. */
      replayed: boolean;
      used: number;
      limit: number;
      remaining: number;
      periodStart: Date;
      /** When the window ends and the count starts again. */
      resetTime: Date;
      enforcement: 'hard' | 'soft';
    };

/**
 * A hard quota refused the units (RESOURCE_EXHAUSTED): nothing was counted; try again after
 * `retryAfterSeconds`, when the window ends. `cause` is the gRPC error.
 */
export class QuotaExhaustedError extends Error {
  override readonly name = 'QuotaExhaustedError';
  constructor(
    readonly meter: string,
    /** Seconds until the window ends (the sidecar's google.rpc.RetryInfo); undefined if it sent none. */
    readonly retryAfterSeconds: number | undefined,
    override readonly cause: ServiceError,
  ) {
    super(cause.details || `quota ${meter} exhausted`);
  }
}

/**
 * The sidecar's QuotaService (docs/plans.md): a tenant's meters counted against its plan's
 * quotas, exactly across every sidecar. `consume` needs `quotas.consume` in the tenant, `usage`
 * `quotas.read`. Past a hard limit `consume` throws a `QuotaExhaustedError`; any other gRPC
 * failure is thrown as the call's `ServiceError` (UNAVAILABLE: nothing was counted, retry).
 *
 * ```ts
 * const quotas = new QuotasClient({ tokens });
 * // A retry with the same key (a redelivered message, a timed-out call) never counts twice.
 * await quotas.consume('exports', { units: 1, idempotencyKey: `export-${job.id}` });
 * ```
 */
export class QuotasClient {
  private readonly client: QuotaServiceClient;

  constructor(private readonly options: SidecarClientOptions) {
    const { platform } = sidecarPackage<ProtoGrpcType>('platform/quotas/v1/quotas.proto');
    this.client = sidecarClient(platform.quotas.v1.QuotaService, options.sidecarAddress);
  }

  /** Checks and consumes `units` (default 1) of `meter` in one step. */
  async consume(
    meter: string,
    options: { units?: number; idempotencyKey?: string; tenant?: string } = {},
  ): Promise<QuotaStatus> {
    const request = {
      token: await this.options.tokens.getToken(),
      tenant: options.tenant ?? this.options.tenant ?? '',
      meter,
      units: options.units ?? 0,
      idempotency_key: options.idempotencyKey ?? '',
    };
    try {
      return statusOf(await unary<QuotaAnswer__Output>((done) => this.client.ConsumeQuota(request, done)));
    } catch (error) {
      const failure = error as ServiceError;
      if (failure.code === status.RESOURCE_EXHAUSTED) {
        throw new QuotaExhaustedError(meter, retryDelayOf(failure.metadata), failure);
      }
      throw error;
    }
  }

  /** The meter's limit and count in the window in progress; counts nothing. */
  async usage(meter: string, options: { tenant?: string } = {}): Promise<QuotaStatus> {
    const request = {
      token: await this.options.tokens.getToken(),
      tenant: options.tenant ?? this.options.tenant ?? '',
      meter,
    };
    return statusOf(await unary<QuotaAnswer__Output>((done) => this.client.GetQuotaUsage(request, done)));
  }

  close(): void {
    this.client.close();
  }
}

function statusOf(answer: QuotaAnswer__Output): QuotaStatus {
  if (!answer.limited) return { limited: false, granted: true };
  return {
    limited: true,
    granted: answer.granted,
    replayed: answer.replayed,
    used: answer.used,
    limit: answer.limit,
    remaining: answer.remaining,
    periodStart: dateOf(answer.period_start),
    resetTime: dateOf(answer.reset_time),
    enforcement: answer.enforcement === 'soft' ? 'soft' : 'hard',
  };
}

const dateOf = (timestamp: Timestamp__Output | null): Date =>
  new Date(Number(timestamp?.seconds ?? 0) * 1000 + Math.floor((timestamp?.nanos ?? 0) / 1e6));
