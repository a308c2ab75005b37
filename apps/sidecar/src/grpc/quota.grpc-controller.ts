import { Controller, Inject } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { isEntryName, type Clock } from '@platform/domain';
import type { ConsumeQuotaRequest, GetQuotaUsageRequest, QuotaAnswerMessage } from '@platform/grpc';
import { invalidArgument } from '../authorization/authorization.error';
import { TokenAuthorizer } from '../authorization/token-authorizer';
import { CLOCK } from '../clock';
import { SidecarError } from '../errors';
import { QuotaCounting, type QuotaOutcome } from '../plans/quota-counting';

/** Units one call may consume (as the control plane's count takes them). */
const MAX_UNITS = 1_000_000_000;
const MAX_IDEMPOTENCY_KEY = 128;
/** A tenant name as the control plane's count and the Redis keys take it. */
const TENANT = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * `platform.quotas.v1.QuotaService` (docs/plans.md): a tenant's meters counted against the
 * quotas of its plan in force, in Redis or at the control plane (QuotaCounting). The tenant is
 * the one the request names, else the caller's own; consuming needs `quotas.consume` there,
 * reading `quotas.read`. Past a hard limit: RESOURCE_EXHAUSTED with a RetryInfo until the
 * window ends.
 */
@Controller()
export class QuotaGrpcController {
  constructor(
    private readonly authorizer: TokenAuthorizer,
    private readonly counting: QuotaCounting,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @GrpcMethod('QuotaService', 'ConsumeQuota')
  async consume({
    token = '',
    tenant: named = '',
    meter = '',
    units = 0,
    idempotency_key: idempotencyKey = '',
  }: Partial<ConsumeQuotaRequest>): Promise<QuotaAnswerMessage> {
    const { tenant } = await this.authorizer.authorizeRpc('QuotaService/ConsumeQuota', {
      token,
      tenant: named,
    });
    requireNames(tenant, meter);
    const count = units === 0 ? 1 : Number(units);
    if (count > MAX_UNITS) throw invalidArgument(`units must be at most ${MAX_UNITS}`);
    if (idempotencyKey.length > MAX_IDEMPOTENCY_KEY) {
      throw invalidArgument(`idempotency_key must be at most ${MAX_IDEMPOTENCY_KEY} characters`);
    }
    const outcome = await this.counting.consume({
      tenant,
      meter,
      units: count,
      ...(idempotencyKey !== '' && { idempotencyKey }),
    });
    if (outcome.limited && !outcome.granted) {
      const end = outcome.window.end;
      throw new SidecarError(
        'quota_exhausted',
        `quota ${meter} of tenant ${tenant} exhausted: ${outcome.used} of ${outcome.limit} used ` +
          `until ${end.toISOString()}`,
        Math.max(1, Math.ceil((end.getTime() - this.clock.now().getTime()) / 1000)),
      );
    }
    return answerOf(outcome, true);
  }

  @GrpcMethod('QuotaService', 'GetQuotaUsage')
  async usage({
    token = '',
    tenant: named = '',
    meter = '',
  }: Partial<GetQuotaUsageRequest>): Promise<QuotaAnswerMessage> {
    const { tenant } = await this.authorizer.authorizeRpc('QuotaService/GetQuotaUsage', {
      token,
      tenant: named,
    });
    requireNames(tenant, meter);
    const outcome = await this.counting.consume({ tenant, meter, units: 0 });
    // Whether one more unit would be granted now.
    return answerOf(
      outcome,
      !outcome.limited || outcome.enforcement === 'soft' || outcome.used < outcome.limit,
    );
  }
}

function requireNames(tenant: string, meter: string): void {
  if (!TENANT.test(tenant)) throw invalidArgument('tenant must be 1 to 64 of A-Z a-z 0-9 . _ -');
  if (!isEntryName(meter))
    throw invalidArgument('meter must be 1 to 64 of a-z 0-9 _ . -, starting with a letter');
}

function answerOf(outcome: QuotaOutcome, granted: boolean): QuotaAnswerMessage {
  if (!outcome.limited) {
    return {
      limited: false,
      granted: true,
      replayed: false,
      used: 0,
      limit: 0,
      remaining: 0,
      enforcement: '',
    };
  }
  return {
    limited: true,
    granted,
    replayed: outcome.replayed,
    used: outcome.used,
    limit: outcome.limit,
    remaining: Math.max(0, outcome.limit - outcome.used),
    period_start: timestamp(outcome.window.start),
    reset_time: timestamp(outcome.window.end),
    enforcement: outcome.enforcement,
  };
}

const timestamp = (at: Date) => {
  const ms = at.getTime();
  return { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1_000_000 };
};
