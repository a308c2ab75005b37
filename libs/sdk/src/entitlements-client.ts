import type { ProtoGrpcType } from './generated/grpc/entitlements';
import type { CheckEntitlementResponse__Output } from './generated/grpc/platform/entitlements/v1/CheckEntitlementResponse';
import type { ListEntitlementsResponse__Output } from './generated/grpc/platform/entitlements/v1/ListEntitlementsResponse';
import type { EntitlementServiceClient } from './generated/grpc/platform/entitlements/v1/EntitlementService';
import type { Value__Output } from './generated/grpc/google/protobuf/Value';
import { sidecarClient, sidecarPackage, unary, type SidecarClientOptions } from './sidecar';

/** A feature's value: on/off, an enum value, or a numeric limit such as seats. */
export type EntitlementValue = boolean | string | number;

/** Whether the tenant has a feature. */
export interface EntitlementCheck {
  entitled: boolean;
  /** The feature's value; absent when the tenant's plan does not name it. */
  value?: EntitlementValue;
  /** The plan in force; null when the tenant has none. */
  plan: string | null;
}

/** A quota as the tenant's plan (or an override) sets it. */
export interface PlanQuota {
  limit: number;
  period: 'hour' | 'day' | 'month';
  enforcement: 'hard' | 'soft';
  thresholds: number[];
}

/** Everything the tenant is entitled to now. */
export interface TenantEntitlements {
  plan: string | null;
  /** The IANA time zone its days and months count in. */
  zone: string;
  features: Record<string, EntitlementValue>;
  quotas: Record<string, PlanQuota>;
}

/**
 * The sidecar's EntitlementService (docs/plans.md): what the tenant's plan in force gives it,
 * answered from the sidecar's memory. The token needs `entitlements.read` in the tenant. A gRPC
 * failure is thrown as the call's `ServiceError` (PERMISSION_DENIED, INVALID_ARGUMENT, UNAVAILABLE...).
 *
 * ```ts
 * const entitlements = new EntitlementsClient({ tokens });
 * if ((await entitlements.check('sso')).entitled) { ... }
 * const { entitled } = await entitlements.check('seats', { amount: members + 1 });
 * ```
 */
export class EntitlementsClient {
  private readonly client: EntitlementServiceClient;

  constructor(private readonly options: SidecarClientOptions) {
    const { platform } = sidecarPackage<ProtoGrpcType>('platform/entitlements/v1/entitlements.proto');
    this.client = sidecarClient(platform.entitlements.v1.EntitlementService, options.sidecarAddress);
  }

  /**
   * Whether the tenant has `feature`: `true`, any enum value, or a number at least `amount`
   * (default 1) is on.
   */
  async check(
    feature: string,
    options: { amount?: number; tenant?: string } = {},
  ): Promise<EntitlementCheck> {
    const request = {
      token: await this.options.tokens.getToken(),
      tenant: options.tenant ?? this.options.tenant ?? '',
      feature,
      amount: options.amount ?? 0,
    };
    const answer = await unary<CheckEntitlementResponse__Output>((done) =>
      this.client.CheckEntitlement(request, done),
    );
    const value = valueOf(answer.value);
    return { entitled: answer.entitled, ...(value !== undefined && { value }), plan: answer.plan || null };
  }

  /** The tenant's plan in force, its features and its quotas. */
  async list(options: { tenant?: string } = {}): Promise<TenantEntitlements> {
    const request = {
      token: await this.options.tokens.getToken(),
      tenant: options.tenant ?? this.options.tenant ?? '',
    };
    const answer = await unary<ListEntitlementsResponse__Output>((done) =>
      this.client.ListEntitlements(request, done),
    );
    const features: Record<string, EntitlementValue> = {};
    for (const [name, message] of Object.entries(answer.features)) {
      const value = valueOf(message);
      if (value !== undefined) features[name] = value;
    }
    const quotas: Record<string, PlanQuota> = {};
    for (const [meter, quota] of Object.entries(answer.quotas)) {
      quotas[meter] = {
        limit: quota.limit,
        period: quota.period as PlanQuota['period'],
        enforcement: quota.enforcement as PlanQuota['enforcement'],
        thresholds: [...quota.thresholds],
      };
    }
    return { plan: answer.plan || null, zone: answer.zone, features, quotas };
  }

  close(): void {
    this.client.close();
  }
}

/** A google.protobuf.Value of a feature (bool, string or number); undefined when unset. */
function valueOf(message: Value__Output | null | undefined): EntitlementValue | undefined {
  switch (message?.kind) {
    case 'boolValue':
      return message.boolValue;
    case 'stringValue':
      return message.stringValue;
    case 'numberValue':
      return message.numberValue;
    default:
      return undefined;
  }
}
