import { Body, Controller, Param } from '@nestjs/common';
import {
  IMPERSONATION_POLICY_OPERATIONS,
  type ImpersonationPolicyDto,
  ImpersonationPolicyUpdateDto,
} from '@platform/contract';
import { type ActingPrincipal, ImpersonationPolicies } from '@platform/domain';
import { Implements } from '../platform/implements';
import { Caller } from './principal';

/** A tenant's impersonation policy, for the principal the backend authorized on the tenant. */
@Controller()
export class ImpersonationPolicyController {
  constructor(private readonly policies: ImpersonationPolicies) {}

  @Implements(IMPERSONATION_POLICY_OPERATIONS.get)
  async get(
    @Param('tenant') tenant: string,
    @Caller() caller: ActingPrincipal,
  ): Promise<ImpersonationPolicyDto> {
    return { tenant, mode: await this.policies.get(caller, tenant) };
  }

  @Implements(IMPERSONATION_POLICY_OPERATIONS.put)
  async put(
    @Param('tenant') tenant: string,
    @Body() body: ImpersonationPolicyUpdateDto,
    @Caller() caller: ActingPrincipal,
  ): Promise<ImpersonationPolicyDto> {
    await this.policies.put(caller, tenant, body.mode);
    return { tenant, mode: body.mode };
  }
}
