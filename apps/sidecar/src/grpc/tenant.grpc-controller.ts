import { Controller, Logger } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { checkTenantIsolation } from '@platform/domain';
import type {
  ResolveTenantResponse,
  ValidateIsolationRequest,
  ValidateIsolationResponse,
} from '@platform/grpc';
import { AuthorizationError, invalidArgument } from '../authorization/authorization.error';
import { TokenAuthorizer } from '../authorization/token-authorizer';

/**
 * `platform.tenant.v1.TenantService`: which tenant a token acts in, and whether it may touch
 * another tenant's resources. Any valid token may ask about itself (RPC_AUTHORITY); tokens are
 * validated exactly as ValidateToken does.
 */
@Controller()
export class TenantGrpcController {
  private readonly logger = new Logger('TenantService');

  constructor(private readonly authorizer: TokenAuthorizer) {}

  /** A user's tenant and roles; a bound app's tenant; platform-wide for an unbound app. */
  @GrpcMethod('TenantService', 'ResolveTenant')
  async resolveTenant({ token = '' }: { token?: string }): Promise<ResolveTenantResponse> {
    const { principal } = await this.authorizer.authorizeRpc('TenantService/ResolveTenant', { token });
    if (principal.tenant === undefined) return { tenant: '', platform_wide: true, roles: [] };
    const roles = principal.kind === 'user' ? principal.roles : [];
    return { tenant: principal.tenant, platform_wide: false, roles };
  }

  @GrpcMethod('TenantService', 'ValidateIsolation')
  async validateIsolation({
    token = '',
    resource_tenant: resourceTenant = '',
  }: Partial<ValidateIsolationRequest>): Promise<ValidateIsolationResponse> {
    if (resourceTenant === '') throw invalidArgument('resource_tenant is required');
    const { claims, principal, tenant } = await this.authorizer.authorizeRpc(
      'TenantService/ValidateIsolation',
      {
        token,
        tenant: resourceTenant,
      },
    );
    const verdict = checkTenantIsolation(principal, tenant);
    if (verdict.allowed) return verdict;
    this.logger.log(`isolation: deny ${claims.sub} of ${claims.tenant} to ${tenant}: ${verdict.reason}`);
    throw new AuthorizationError('permission_denied', verdict.reason);
  }
}
