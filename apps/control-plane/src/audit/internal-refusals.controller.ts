import { Body, Controller } from '@nestjs/common';
import { CROSS_TENANT_REFUSAL_OPERATIONS, CrossTenantRefusalDto } from '@platform/contract';
import { type ActingPrincipal, CrossTenantRefusalAuditor, policyPrincipalOf } from '@platform/domain';
import { Implements } from '../platform/implements';
import { Caller } from '../tenants/principal';

/**
 * Cross-tenant refusals the sidecars decided, audited here (rate-limited by the auditor) into
 * the log of the tenant reached into (docs/authorization.md, "Refusals are audited").
 */
@Controller()
export class InternalRefusalsController {
  constructor(private readonly auditor: CrossTenantRefusalAuditor) {}

  @Implements(CROSS_TENANT_REFUSAL_OPERATIONS.refused)
  async refused(@Body() body: CrossTenantRefusalDto, @Caller() caller: ActingPrincipal) {
    const outcome = await this.auditor.refused({
      principal: policyPrincipalOf(caller),
      action: body.action,
      tenant: body.tenant,
      decisionId: body.decision_id,
    });
    return { outcome };
  }
}
