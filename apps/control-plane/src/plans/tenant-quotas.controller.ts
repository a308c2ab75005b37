import { Body, Controller, Inject, Param, Query } from '@nestjs/common';
import {
  ENTITLEMENT_OPERATIONS,
  type EntitlementsDto,
  INTERNAL_QUOTA_OPERATIONS,
  type QuotaAnswerDto,
  type QuotaAnswersDto,
  QuotaConsumptionDto,
  QuotaConsumptionsDto,
  QuotaHistoryQueryDto,
  type QuotaUsageDto,
} from '@platform/contract';
import {
  type Clock,
  isEntryName,
  type Quota,
  QuotaLedger,
  type QuotaUsage,
  validationFailed,
} from '@platform/domain';
import { Implements } from '../platform/implements';
import { CLOCK } from '../platform/tokens';
import { ControlPlanePlans } from './control-plane-plans';
import { type Counted, QuotaCounting } from './quota-counting';

const DEFAULT_HISTORY = 12;

/**
 * What a tenant may read of its plan (the principal the backend authorized: `entitlements.read`,
 * `quotas.read` in the tenant), and the count the sidecars consume through when no Redis counts.
 */
@Controller()
export class TenantQuotasController {
  constructor(
    private readonly plans: ControlPlanePlans,
    private readonly counting: QuotaCounting,
    private readonly ledger: QuotaLedger,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Implements(ENTITLEMENT_OPERATIONS.entitlements)
  entitlements(@Param('tenant') tenant: string): EntitlementsDto {
    return { tenant, ...this.plans.entitlements(tenant, this.clock.now()) };
  }

  @Implements(ENTITLEMENT_OPERATIONS.usage)
  async usage(@Param('tenant') tenant: string): Promise<QuotaUsageDto[]> {
    const { quotas } = this.plans.entitlements(tenant, this.clock.now());
    const meters = Object.keys(quotas).sort();
    const counted = await Promise.all(meters.map((meter) => this.counting.read(tenant, meter)));
    return meters.flatMap((meter, i) => {
      const read = counted[i];
      return read === null ? [] : [toUsage(meter, read)];
    });
  }

  @Implements(ENTITLEMENT_OPERATIONS.history)
  async history(
    @Param('tenant') tenant: string,
    @Param('meter') meter: string,
    @Query() query: QuotaHistoryQueryDto,
  ): Promise<QuotaUsageDto[]> {
    if (!isEntryName(meter))
      throw validationFailed('the meter name is 1 to 64 of a-z 0-9 _ . -, from a letter');
    const windows = await this.ledger.history(tenant, meter, query.limit ?? DEFAULT_HISTORY);
    return windows.map(fromWindow);
  }

  @Implements(INTERNAL_QUOTA_OPERATIONS.consume)
  consume(@Body() body: QuotaConsumptionDto): Promise<QuotaAnswerDto> {
    return this.answer(body);
  }

  /** Each counted alone; those of one turn share the ledger's transaction (QuotaCounting). */
  @Implements(INTERNAL_QUOTA_OPERATIONS.consumeMany)
  async consumeMany(@Body() body: QuotaConsumptionsDto): Promise<QuotaAnswersDto> {
    return { answers: await Promise.all(body.consumptions.map((consumption) => this.answer(consumption))) };
  }

  private async answer(body: QuotaConsumptionDto): Promise<QuotaAnswerDto> {
    const demand = {
      tenant: body.tenant,
      meter: body.meter,
      units: body.units,
      ...(body.idempotency_key !== undefined && { idempotencyKey: body.idempotency_key }),
    };
    const counted =
      body.units === 0
        ? await this.counting.read(body.tenant, body.meter)
        : await this.counting.consume(demand);
    if (counted === null) return { limited: false, granted: true, replayed: false };
    return {
      limited: true,
      granted: counted.granted,
      replayed: counted.replayed,
      usage: toUsage(body.meter, counted),
    };
  }
}

function toUsage(meter: string, counted: NonNullable<Counted>): QuotaUsageDto {
  const quota: Quota = counted.quota;
  return {
    meter,
    limit: counted.limit,
    used: counted.used,
    remaining: counted.remaining,
    period_start: counted.window.start.toISOString(),
    period_end: counted.window.end.toISOString(),
    period: quota.period,
    enforcement: quota.enforcement,
  };
}

function fromWindow(usage: QuotaUsage): QuotaUsageDto {
  return {
    meter: usage.meter,
    limit: usage.limit,
    used: usage.used,
    remaining: Math.max(0, usage.limit - usage.used),
    period_start: usage.periodStart.toISOString(),
    period_end: usage.periodEnd.toISOString(),
    notified: usage.notified,
  };
}
