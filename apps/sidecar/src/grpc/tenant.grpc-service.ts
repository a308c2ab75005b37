import type { sendUnaryData, ServerUnaryCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import { Injectable, Logger } from '@nestjs/common';
import { checkTenantIsolation } from '@platform/domain';
import type {
  ResolveTenantResponse,
  ValidateIsolationRequest,
  ValidateIsolationResponse,
} from '@platform/grpc';
import { AuthorizationError, invalidArgument } from '../authorization/authorization.error';
import { principalOfClaims } from '../authorization/principals';
import { failCall } from './call-failure';
import { TokenClaimsReader } from './token-claims.reader';

/**
 * `platform.tenant.v1.TenantService`: which tenant a token acts in, and whether it may touch
 * another tenant's resources. Tokens are validated exactly as ValidateToken does.
 */
@Injectable()
export class TenantGrpcService {
  private readonly logger = new Logger('TenantService');

  constructor(private readonly tokens: TokenClaimsReader) {}

  implementation(): UntypedServiceImplementation {
    return { ResolveTenant: this.resolveTenant, ValidateIsolation: this.validateIsolation };
  }

  private readonly resolveTenant = (
    call: ServerUnaryCall<{ token?: string }, ResolveTenantResponse>,
    callback: sendUnaryData<ResolveTenantResponse>,
  ): void => {
    this.tokens.read(call.request.token ?? '').then(
      (claims) => {
        const principal = principalOfClaims(claims);
        callback(
          null,
          principal.kind === 'user'
            ? { tenant: principal.tenant, platform_wide: false, roles: principal.roles }
            : { tenant: '', platform_wide: true, roles: [] },
        );
      },
      (error: unknown) => failCall(this.logger, 'ResolveTenant', callback, error),
    );
  };

  private readonly validateIsolation = (
    call: ServerUnaryCall<Partial<ValidateIsolationRequest>, ValidateIsolationResponse>,
    callback: sendUnaryData<ValidateIsolationResponse>,
  ): void => {
    const { token = '', resource_tenant: resourceTenant = '' } = call.request;
    if (resourceTenant === '') {
      return failCall(
        this.logger,
        'ValidateIsolation',
        callback,
        invalidArgument('resource_tenant is required'),
      );
    }
    this.tokens
      .read(token)
      .then((claims): ValidateIsolationResponse => {
        const verdict = checkTenantIsolation(principalOfClaims(claims), resourceTenant);
        if (verdict.allowed) return verdict;
        this.logger.log(
          `isolation: deny ${claims.sub} of ${claims.tenant} ` + `to ${resourceTenant}: ${verdict.reason}`,
        );
        throw new AuthorizationError('permission_denied', verdict.reason);
      })
      .then(
        (response) => callback(null, response),
        (error: unknown) => failCall(this.logger, 'ValidateIsolation', callback, error),
      );
  };
}
