import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { checkEntitlement, isEntryName, type EntitlementValue } from '@platform/domain';
import type {
  CheckEntitlementAnswer,
  CheckEntitlementRequest,
  ListEntitlementsAnswer,
  ListEntitlementsRequest,
} from '@platform/grpc';
import { invalidArgument } from '../authorization/authorization.error';
import { TokenAuthorizer } from '../authorization/token-authorizer';
import { TenantPlans } from '../plans/tenant-plans';

/**
 * `platform.entitlements.v1.EntitlementService` (docs/plans.md): what the tenant's plan in force
 * gives it, with its overrides in force, answered from the plans and subscriptions this sidecar
 * holds. The tenant is the one the request names, else the caller's own; the caller needs
 * `entitlements.read` there, and a user or a bound app reaches its own tenant only.
 */
@Controller()
export class EntitlementGrpcController {
  constructor(
    private readonly authorizer: TokenAuthorizer,
    private readonly plans: TenantPlans,
  ) {}

  @GrpcMethod('EntitlementService', 'CheckEntitlement')
  async check({
    token = '',
    tenant: named = '',
    feature = '',
    amount = 0,
  }: Partial<CheckEntitlementRequest>): Promise<CheckEntitlementAnswer> {
    const { tenant } = await this.authorizer.authorizeRpc('EntitlementService/CheckEntitlement', {
      token,
      tenant: named,
    });
    if (!isEntryName(feature)) {
      throw invalidArgument('feature must be 1 to 64 of a-z 0-9 _ . -, starting with a letter');
    }
    const entitlements = this.plans.entitlements(tenant);
    const { entitled, value } = checkEntitlement(entitlements, feature, amount === 0 ? 1 : Number(amount));
    return {
      entitled,
      ...(value !== undefined && { value: valueMessage(value) }),
      plan: entitlements.plan ?? '',
    };
  }

  @GrpcMethod('EntitlementService', 'ListEntitlements')
  async list({
    token = '',
    tenant: named = '',
  }: Partial<ListEntitlementsRequest>): Promise<ListEntitlementsAnswer> {
    const { tenant } = await this.authorizer.authorizeRpc('EntitlementService/ListEntitlements', {
      token,
      tenant: named,
    });
    const { plan, zone, features, quotas } = this.plans.entitlements(tenant);
    return {
      plan: plan ?? '',
      zone,
      features: Object.fromEntries(
        Object.entries(features).map(([name, value]) => [name, valueMessage(value)]),
      ),
      quotas: Object.fromEntries(
        Object.entries(quotas).map(([meter, quota]) => [
          meter,
          {
            limit: quota.limit,
            period: quota.period,
            enforcement: quota.enforcement,
            thresholds: quota.thresholds,
          },
        ]),
      ),
    };
  }
}

/** A feature's value as google.protobuf.Value (whose field names are protobuf's own camelCase). */
function valueMessage(value: EntitlementValue) {
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return { numberValue: value };
  return { stringValue: value };
}
