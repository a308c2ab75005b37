import { Controller, Logger } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { checkTenantIsolation } from '@platform/domain';
import type {
  ResolveTenantResponse,
  ValidateIsolationRequest,
  ValidateIsolationResponse,
} from '@platform/grpc';
import { AuthorizationError, invalidArgument } from '../authorization/authorization.error';
import { principalOfClaims } from '../authorization/principals';
import { TokenClaimsReader } from './token-claims.reader';

/**
 * `platform.tenant.v1.TenantService`: which tenant a token acts in, and whether it may touch
 * another tenant's resources. Tokens are validated exactly as ValidateToken does.
 */
@Controller()
export class TenantGrpcController {
  private readonly logger = new Logger('TenantService');

  constructor(private readonly tokens: TokenClaimsReader) {}

  @GrpcMethod('TenantService', 'ResolveTenant')
  async resolveTenant({ token = '' }: { token?: string }): Promise<ResolveTenantResponse> {
    const principal = principalOfClaims(await this.tokens.read(token));
    return principal.kind === 'user'
      ? { tenant: principal.tenant, platform_wide: false, roles: principal.roles }
      : { tenant: '', platform_wide: true, roles: [] };
  }

  @GrpcMethod('TenantService', 'ValidateIsolation')
  async validateIsolation({
    token = '',
    resource_tenant: resourceTenant = '',
  }: Partial<ValidateIsolationRequest>): Promise<ValidateIsolationResponse> {
    if (resourceTenant === '') throw invalidArgument('resource_tenant is required');
    const claims = await this.tokens.read(token);
    const verdict = checkTenantIsolation(principalOfClaims(claims), resourceTenant);
    if (verdict.allowed) return verdict;
    this.logger.log(
      `isolation: deny ${claims.sub} of ${claims.tenant} to ${resourceTenant}: ${verdict.reason}`,
    );
    throw new AuthorizationError('permission_denied', verdict.reason);
  }
}
