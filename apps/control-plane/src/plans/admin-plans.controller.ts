import { Body, Controller, Param } from '@nestjs/common';
import {
  PLAN_OPERATIONS,
  type PlanDto,
  PlanUpdateDto,
  type SubscriptionDto,
  SubscriptionUpdateDto,
} from '@platform/contract';
import { type AuditActor, PlanAdministration, type ServiceDefinition } from '@platform/domain';
import { AdminActor } from '../platform/admin-api.guard';
import { Implements } from '../platform/implements';

/** Plans and each tenant's subscription (docs/plans.md), for platform administrators. */
@Controller()
export class AdminPlansController {
  constructor(private readonly plans: PlanAdministration) {}

  @Implements(PLAN_OPERATIONS.list)
  async list(): Promise<PlanDto[]> {
    return (await this.plans.listPlans()).map(toPlan);
  }

  @Implements(PLAN_OPERATIONS.get)
  async get(@Param('plan') plan: string): Promise<PlanDto> {
    return toPlan(await this.plans.getPlan(plan));
  }

  @Implements(PLAN_OPERATIONS.put)
  async put(
    @Param('plan') plan: string,
    @Body() body: PlanUpdateDto,
    @AdminActor() actor: AuditActor,
  ): Promise<PlanDto> {
    return toPlan(await this.plans.putPlan(actor, plan, body));
  }

  @Implements(PLAN_OPERATIONS.delete)
  async delete(@Param('plan') plan: string, @AdminActor() actor: AuditActor): Promise<void> {
    await this.plans.deletePlan(actor, plan);
  }

  @Implements(PLAN_OPERATIONS.getSubscription)
  async getSubscription(@Param('tenant') tenant: string): Promise<SubscriptionDto> {
    return toSubscription(await this.plans.getSubscription(tenant));
  }

  @Implements(PLAN_OPERATIONS.putSubscription)
  async putSubscription(
    @Param('tenant') tenant: string,
    @Body() body: SubscriptionUpdateDto,
    @AdminActor() actor: AuditActor,
  ): Promise<SubscriptionDto> {
    return toSubscription(await this.plans.putSubscription(actor, tenant, body));
  }

  @Implements(PLAN_OPERATIONS.deleteSubscription)
  async deleteSubscription(@Param('tenant') tenant: string, @AdminActor() actor: AuditActor): Promise<void> {
    await this.plans.deleteSubscription(actor, tenant);
  }
}

function toPlan({ name, document, version, updatedAt }: ServiceDefinition): PlanDto {
  const { description, features, quotas } = document as {
    description?: string;
    features: object;
    quotas: object;
  };
  return {
    name,
    ...(description !== undefined && { description }),
    features,
    quotas,
    version,
    updated_at: updatedAt.toISOString(),
  };
}

function toSubscription({ tenant, document, version, updatedAt }: ServiceDefinition): SubscriptionDto {
  const { zone, assignments, overrides } = document as {
    zone: string;
    assignments: object[];
    overrides: object[];
  };
  return { tenant, zone, assignments, overrides, version, updated_at: updatedAt.toISOString() };
}
