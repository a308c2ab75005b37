import { ApiProperty, type ApiPropertyOptions, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { QUOTA_PERIODS } from '@platform/domain';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { TimestampProperty } from './fields';
import { operation } from './operation-table';

/** Plans, subscriptions, entitlements and quota usage (docs/plans.md). */

const FEATURES: ApiPropertyOptions = {
  type: 'object',
  additionalProperties: { oneOf: [{ type: 'boolean' }, { type: 'string' }, { type: 'integer', minimum: 0 }] },
  description:
    'Features by name (a-z 0-9 _ . -, from a letter): on/off, an enum value (a string) or a numeric limit such as seats.',
  example: { sso: true, support: 'business', seats: 50 },
};

@ApiSchema({ name: 'Quota', description: 'A limit on a meter per window.' })
export class QuotaDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Units per window.' }) limit: number;
  @ApiProperty({
    enum: QUOTA_PERIODS,
    description: 'The window: the hour, day or calendar month in the tenant’s zone.',
  })
  period: string;
  @ApiProperty({
    enum: ['hard', 'soft'],
    description: '`hard` (default) refuses past the limit; `soft` counts on and only notifies.',
  })
  enforcement: string;
  @ApiProperty({
    type: [Number],
    description:
      'Percentages of the limit whose crossing is audited (`quota.threshold_reached`) once a window; default 80 and 100.',
  })
  thresholds: number[];
}

const QUOTAS: ApiPropertyOptions = {
  type: 'object',
  additionalProperties: { $ref: '#/components/schemas/Quota' },
  description:
    'Quotas by meter. The platform meters `tokens_issued`, `jobs_submitted`, `secrets_stored` and `api_calls` itself; any other name is a meter the tenant’s services count through the sidecar’s QuotaService.',
  example: {
    tokens_issued: { limit: 1000000, period: 'month' },
    exports: { limit: 100, period: 'day', enforcement: 'soft' },
  },
};

/** Not validated here: the domain reads the document and says where it is wrong. */
@ApiSchema({ name: 'PlanUpdate', description: 'A plan, complete: it replaces the one stored.' })
export class PlanUpdateDto {
  @ApiPropertyOptional({ maxLength: 256 }) @Allow() description?: unknown;
  @ApiPropertyOptional(FEATURES) @Allow() features?: unknown;
  @ApiPropertyOptional({ ...QUOTAS, additionalProperties: { type: 'object' } } as ApiPropertyOptions)
  @Allow()
  quotas?: unknown;
}

@ApiSchema({ name: 'Plan', description: 'A plan as stored, as every sidecar holds it.' })
export class PlanDto {
  @ApiProperty({ example: 'pro' }) name: string;
  @ApiPropertyOptional() description?: string;
  @ApiProperty(FEATURES) features: object;
  @ApiProperty(QUOTAS) quotas: object;
  @ApiProperty({ description: '1 for the first write, one more for each.' }) version: number;
  @TimestampProperty() updated_at: string;
}

@ApiSchema({ name: 'SubscriptionUpdate', description: 'A tenant’s subscription, complete.' })
export class SubscriptionUpdateDto {
  @ApiPropertyOptional({
    example: 'Europe/Paris',
    description: 'The IANA time zone the tenant’s days and months count in; `UTC` when omitted.',
  })
  @Allow()
  zone?: unknown;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object' },
    description:
      'Plans over time: `{plan, from, until?}` (RFC 3339). At an instant the assignment in force with the latest `from` applies; none in force: no plan.',
    example: [{ plan: 'pro', from: '2026-12-01T00:00:00Z' }],
  })
  @Allow()
  assignments?: unknown;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object' },
    description:
      'Changes on top of the plan while in force (`from`, `until` optional): `features` and `quotas` replace the plan’s of the same name, `null` removes one; applied in order. A trial: `{"reason": "trial", "features": {"sso": true}, "until": "…"}`.',
  })
  @Allow()
  overrides?: unknown;
}

@ApiSchema({ name: 'Subscription', description: 'A tenant’s subscription as stored.' })
export class SubscriptionDto {
  @ApiProperty() tenant: string;
  @ApiProperty() zone: string;
  @ApiProperty({ type: 'array', items: { type: 'object' } }) assignments: object[];
  @ApiProperty({ type: 'array', items: { type: 'object' } }) overrides: object[];
  @ApiProperty() version: number;
  @TimestampProperty() updated_at: string;
}

@ApiSchema({ name: 'Entitlements', description: 'What a tenant is entitled to now.' })
export class EntitlementsDto {
  @ApiProperty() tenant: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'The plan in force; null when none is.' })
  plan: string | null;
  @ApiProperty() zone: string;
  @ApiProperty(FEATURES) features: object;
  @ApiProperty(QUOTAS) quotas: object;
}

@ApiSchema({ name: 'QuotaUsage', description: 'One meter’s window: its limit and what it has counted.' })
export class QuotaUsageDto {
  @ApiProperty({ example: 'tokens_issued' }) meter: string;
  @ApiProperty({ type: 'integer' }) limit: number;
  @ApiProperty({ type: 'integer' }) used: number;
  @ApiProperty({ type: 'integer', description: 'Units left (0 at or past the limit).' }) remaining: number;
  @TimestampProperty() period_start: string;
  @TimestampProperty({ description: 'When the window ends and the count starts again.' }) period_end: string;
  @ApiPropertyOptional({ enum: QUOTA_PERIODS }) period?: string;
  @ApiPropertyOptional({ enum: ['hard', 'soft'] }) enforcement?: string;
  @ApiPropertyOptional({ type: [Number], description: 'Thresholds announced in this window.' })
  notified?: number[];
}

export class QuotaHistoryQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 12,
    description: 'How many windows, newest first.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

const METER = { pattern: '^[a-z][a-z0-9_.-]{0,63}$', example: 'tokens_issued' } as const;

@ApiSchema({ name: 'QuotaConsumption', description: 'A consumption asked of the control plane’s count.' })
export class QuotaConsumptionDto {
  @ApiProperty() @IsString() @Matches(/^[A-Za-z0-9._-]{1,64}$/) tenant: string;
  @ApiProperty(METER) @IsString() @Matches(/^[a-z][a-z0-9_.-]{0,63}$/) meter: string;
  @ApiProperty({ type: 'integer', minimum: 0 }) @IsInt() @Min(0) @Max(1_000_000_000) units: number;
  @ApiPropertyOptional({ maxLength: 128 }) @IsOptional() @IsString() @MaxLength(128) idempotency_key?: string;
}

@ApiSchema({ name: 'QuotaAnswer', description: 'What a consumption got.' })
export class QuotaAnswerDto {
  @ApiProperty({ description: 'False when no quota of the tenant’s plan limits the meter: nothing counted.' })
  limited: boolean;
  @ApiProperty() granted: boolean;
  @ApiProperty({ description: 'A retry whose key was already counted: the first answer again.' })
  replayed: boolean;
  @ApiPropertyOptional({ type: QuotaUsageDto }) usage?: QuotaUsageDto;
}

@ApiSchema({ name: 'QuotaConsumptions', description: 'Consumptions a sidecar gathered, asked at once.' })
export class QuotaConsumptionsDto {
  @ApiProperty({ type: [QuotaConsumptionDto], description: '1 to 1,000 consumptions, each counted alone.' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1_000)
  @ValidateNested({ each: true })
  @Type(() => QuotaConsumptionDto)
  consumptions: QuotaConsumptionDto[];
}

@ApiSchema({ name: 'QuotaAnswers', description: 'An answer for each consumption, in their order.' })
export class QuotaAnswersDto {
  @ApiProperty({ type: [QuotaAnswerDto] }) answers: QuotaAnswerDto[];
}

const PLAN_PATH = 'api/v1/plans/:plan';
const SUBSCRIPTION_PATH = 'api/v1/tenants/:tenant/subscription';
const PLATFORM_ADMIN = { kind: 'admin' } as const;
const ADMIN_OF_TENANT = { kind: 'admin', tenantParam: 'tenant' } as const;
const PLAN = { plan: { example: 'pro' } };
const TENANT = { tenant: { example: 'acme' } };
const NO_PLAN = 'No such plan.';
const NO_SUBSCRIPTION = 'The tenant has no subscription.';

/** Plans and subscriptions, for platform administrators (a tenant admin cannot raise its own plan). */
export const PLAN_OPERATIONS = {
  list: operation({
    id: 'listPlans',
    tag: 'Plans and quotas',
    summary: 'Every plan',
    method: 'GET',
    path: 'api/v1/plans',
    caller: PLATFORM_ADMIN,
    answer: { status: 200, model: [PlanDto], description: 'The plans, by name.' },
  }),
  get: operation({
    id: 'getPlan',
    tag: 'Plans and quotas',
    summary: 'One plan',
    method: 'GET',
    path: PLAN_PATH,
    caller: PLATFORM_ADMIN,
    params: PLAN,
    answer: { status: 200, model: PlanDto, description: 'The plan.' },
    models: [QuotaDto],
    refuses: { 404: NO_PLAN },
  }),
  put: operation({
    id: 'putPlan',
    tag: 'Plans and quotas',
    summary: 'Create or replace a plan',
    description:
      'A new version; every sidecar applies it within a second, and every tenant on the plan has its features and quotas from then on (counts of the window in progress carry on). What the plan cannot be is **400** with where. Audited (`plan.changed`).',
    method: 'PUT',
    path: PLAN_PATH,
    caller: PLATFORM_ADMIN,
    params: PLAN,
    body: { type: 'json', model: PlanUpdateDto },
    answer: { status: 200, model: PlanDto, description: 'The plan as stored.' },
  }),
  delete: operation({
    id: 'deletePlan',
    tag: 'Plans and quotas',
    summary: 'Remove a plan',
    description:
      'A tenant whose subscription still names it has no plan while that assignment is in force (its overrides still apply). Audited (`plan.deleted`).',
    method: 'DELETE',
    path: PLAN_PATH,
    caller: PLATFORM_ADMIN,
    params: PLAN,
    answer: { status: 204, description: 'Removed.' },
    refuses: { 404: NO_PLAN },
  }),
  getSubscription: operation({
    id: 'getSubscription',
    tag: 'Plans and quotas',
    summary: 'A tenant’s subscription',
    method: 'GET',
    path: SUBSCRIPTION_PATH,
    caller: ADMIN_OF_TENANT,
    params: TENANT,
    answer: { status: 200, model: SubscriptionDto, description: 'Its plans over time and its overrides.' },
    refuses: { 404: NO_SUBSCRIPTION },
  }),
  putSubscription: operation({
    id: 'putSubscription',
    tag: 'Plans and quotas',
    summary: 'Set a tenant’s plans and overrides',
    description:
      'Replaces the subscription (a new version), applied by every sidecar within a second. A plan it names that does not exist, a date or zone it cannot read: **400** with where. Audited (`subscription.changed`).',
    method: 'PUT',
    path: SUBSCRIPTION_PATH,
    caller: ADMIN_OF_TENANT,
    params: TENANT,
    body: { type: 'json', model: SubscriptionUpdateDto },
    answer: { status: 200, model: SubscriptionDto, description: 'The subscription as stored.' },
  }),
  deleteSubscription: operation({
    id: 'deleteSubscription',
    tag: 'Plans and quotas',
    summary: 'Remove a tenant’s subscription',
    description: 'The tenant has no plan, no features and no quotas. Audited (`subscription.deleted`).',
    method: 'DELETE',
    path: SUBSCRIPTION_PATH,
    caller: ADMIN_OF_TENANT,
    params: TENANT,
    answer: { status: 204, description: 'Removed.' },
    refuses: { 404: NO_SUBSCRIPTION },
  }),
};

const ENTITLEMENTS_READ = { kind: 'permission', action: 'entitlements.read', tenantParam: 'tenant' } as const;
const QUOTAS_READ = { kind: 'permission', action: 'quotas.read', tenantParam: 'tenant' } as const;

/** What a tenant may read of its own plan: its entitlements and its usage. */
export const ENTITLEMENT_OPERATIONS = {
  entitlements: operation({
    id: 'getEntitlements',
    tag: 'Plans and quotas',
    summary: 'What a tenant is entitled to now',
    description:
      'Permission `entitlements.read` on `{tenant}`: the plan in force with the overrides in force applied. A tenant without a subscription has no plan and nothing.',
    method: 'GET',
    path: 'api/v1/tenants/:tenant/entitlements',
    internal: 'internal/v1/tenants/:tenant/entitlements',
    caller: ENTITLEMENTS_READ,
    params: TENANT,
    answer: { status: 200, model: EntitlementsDto, description: 'The entitlements.' },
  }),
  usage: operation({
    id: 'listQuotaUsage',
    tag: 'Plans and quotas',
    summary: 'A tenant’s quotas and their use in the window in progress',
    description:
      'Permission `quotas.read` on `{tenant}`: each quota of the plan in force, with its durable count (with Redis counting, at most about a second behind: docs/plans.md).',
    method: 'GET',
    path: 'api/v1/tenants/:tenant/quotas',
    internal: 'internal/v1/tenants/:tenant/quotas',
    caller: QUOTAS_READ,
    params: TENANT,
    answer: { status: 200, model: [QuotaUsageDto], description: 'By meter.' },
  }),
  history: operation({
    id: 'getQuotaHistory',
    tag: 'Plans and quotas',
    summary: 'A meter’s past windows',
    description:
      'Permission `quotas.read` on `{tenant}`: the windows the meter counted in, newest first, with the limit at their last count and the thresholds announced.',
    method: 'GET',
    path: 'api/v1/tenants/:tenant/quotas/:meter/usage',
    internal: 'internal/v1/tenants/:tenant/quotas/:meter/usage',
    caller: QUOTAS_READ,
    params: { ...TENANT, meter: { example: 'tokens_issued' } },
    query: QuotaHistoryQueryDto,
    answer: { status: 200, model: [QuotaUsageDto], description: 'Newest first.' },
    refuses: { 400: 'The meter name is not one (a-z 0-9 _ . -, from a letter).' },
  }),
};

/** The control plane's count, for the sidecars' QuotaService when no Redis counts (docs/plans.md). */
export const INTERNAL_QUOTA_OPERATIONS = {
  // One consumption a request: what sidecars of releases before the batches call (a rolling upgrade).
  consume: operation({
    id: 'consumeQuota',
    tag: 'Internal',
    summary: 'Check and consume units of a tenant’s meter',
    method: 'POST',
    path: 'internal/v1/quotas/consume',
    caller: { kind: 'internal' },
    body: { type: 'json', model: QuotaConsumptionDto },
    answer: { status: 200, model: QuotaAnswerDto, description: 'What the consumption got.' },
  }),
  // What the sidecars call: the consumptions of one turn of their loop in one request.
  consumeMany: operation({
    id: 'consumeQuotas',
    tag: 'Internal',
    summary: 'Check and consume units of several meters at once',
    method: 'POST',
    path: 'internal/v1/quotas/consumptions',
    caller: { kind: 'internal' },
    body: { type: 'json', model: QuotaConsumptionsDto },
    answer: { status: 200, model: QuotaAnswersDto, description: 'An answer for each, in their order.' },
  }),
};
