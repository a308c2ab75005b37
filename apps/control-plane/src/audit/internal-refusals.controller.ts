import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { CrossTenantRefusalDto } from '@platform/contract';
import { CrossTenantRefusalAuditor, policyPrincipalOf } from '@platform/domain';
import { PRINCIPAL_HEADER } from '@platform/internal';
import { readPrincipal } from '../tenants/principal';
import { InternalRoute } from '../platform/route-authority';

/**
 * Cross-tenant refusals the sidecars decided, audited here (rate-limited by the auditor) into
 * the log of the tenant reached into (docs/authorization.md, "Refusals are audited").
 */
@Controller('internal/v1')
@InternalRoute()
export class InternalRefusalsController {
  constructor(private readonly auditor: CrossTenantRefusalAuditor) {}

  @Post('authorization/refusals')
  @HttpCode(200)
  async refused(
    @Body() body: CrossTenantRefusalDto,
    @Headers(PRINCIPAL_HEADER) principal?: string,
  ): Promise<{ outcome: string }> {
    const outcome = await this.auditor.refused({
      principal: policyPrincipalOf(readPrincipal(principal)),
      action: body.action,
      tenant: body.tenant,
      decisionId: body.decision_id,
    });
    return { outcome };
  }
}
