import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import type { SecretValueDto } from '@platform/contract';
import { parseSecretReference, type SecretReference } from '@platform/domain';
import type { ResolveSecretAnswer, ResolveSecretRequest } from '@platform/grpc';
import { invalidArgument } from '../authorization/authorization.error';
import { TokenAuthorizer } from '../authorization/token-authorizer';
import { callForCaller, tenantPath } from '../control-plane/caller-call';
import { ControlPlaneApi } from '../control-plane/control-plane-api';

/**
 * `platform.secrets.v1.SecretService` (docs/secrets.md): the policy service decides
 * `secrets.read` on the secret's tenant here (a reference's, else the one named, else the
 * caller's own); the control plane opens the value and audits the read. Nothing is kept: a
 * secret changed a moment ago is answered as it is now.
 */
@Controller()
export class SecretGrpcController {
  constructor(
    private readonly authorizer: TokenAuthorizer,
    private readonly controlPlane: ControlPlaneApi,
  ) {}

  @GrpcMethod('SecretService', 'ResolveSecret')
  async resolve(request: Partial<ResolveSecretRequest>): Promise<ResolveSecretAnswer> {
    const target = targetOf(request);
    const { claims, tenant } = await this.authorizer.authorizeRpc('SecretService/ResolveSecret', {
      token: request.token,
      tenant: target.tenant,
    });
    const query = target.version === undefined ? '' : `?version=${target.version}`;
    const path = `${tenantPath(tenant)}/secrets/${encodeURIComponent(target.name)}${query}`;
    const secret = (await callForCaller(this.controlPlane, claims, 'GET', path)) as SecretValueDto;
    return {
      tenant,
      name: secret.name,
      version: secret.version,
      value: secret.value,
      created_at: secret.created_at,
    };
  }
}

/** What the request points at: a reference, or a name in a tenant ('': the caller's own). */
function targetOf(request: Partial<ResolveSecretRequest>): SecretReference {
  const { reference = '', tenant = '', name = '', version = 0 } = request;
  if (reference !== '') {
    if (tenant !== '' || name !== '' || version !== 0) {
      throw invalidArgument('give either a reference or a tenant, name and version, not both');
    }
    return readReference(reference);
  }
  if (name === '') throw invalidArgument('a reference or a name is required');
  return { tenant, name, version: version === 0 ? undefined : version };
}

function readReference(reference: string): SecretReference {
  try {
    return parseSecretReference(reference);
  } catch (error) {
    throw invalidArgument((error as Error).message);
  }
}
