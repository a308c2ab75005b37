import { Body, Controller, Param } from '@nestjs/common';
import {
  FEDERATION_OPERATIONS,
  type FederatedIssuerDto,
  type FederationRuleDto,
  RegisterFederatedIssuerDto,
  UpdateFederatedIssuerDto,
} from '@platform/contract';
import {
  type ActingPrincipal,
  type FederatedIssuer,
  FederationRegistry,
  type FederationRule,
} from '@platform/domain';
import { Implements } from '../platform/implements';
import { Caller } from '../tenants/principal';

/** A tenant's trusted workload issuers (docs/workload-identity.md), for the principal the backend authorized. */
@Controller()
export class FederatedIssuersController {
  constructor(private readonly registry: FederationRegistry) {}

  @Implements(FEDERATION_OPERATIONS.register)
  async register(
    @Param('tenant') tenant: string,
    @Body() body: RegisterFederatedIssuerDto,
    @Caller() caller: ActingPrincipal,
  ): Promise<FederatedIssuerDto> {
    const issuer = await this.registry.register(caller, tenant, {
      issuer: body.issuer,
      jwksUri: body.jwks_uri,
      rules: body.rules.map(toRule),
    });
    return toIssuerResponse(issuer);
  }

  @Implements(FEDERATION_OPERATIONS.list)
  async list(
    @Param('tenant') tenant: string,
    @Caller() caller: ActingPrincipal,
  ): Promise<FederatedIssuerDto[]> {
    return (await this.registry.list(caller, tenant)).map(toIssuerResponse);
  }

  @Implements(FEDERATION_OPERATIONS.get)
  async get(
    @Param('tenant') tenant: string,
    @Param('id') id: string,
    @Caller() caller: ActingPrincipal,
  ): Promise<FederatedIssuerDto> {
    return toIssuerResponse(await this.registry.get(caller, tenant, id));
  }

  @Implements(FEDERATION_OPERATIONS.update)
  async update(
    @Param('tenant') tenant: string,
    @Param('id') id: string,
    @Body() body: UpdateFederatedIssuerDto,
    @Caller() caller: ActingPrincipal,
  ): Promise<FederatedIssuerDto> {
    const issuer = await this.registry.update(caller, tenant, id, {
      jwksUri: body.jwks_uri,
      rules: body.rules.map(toRule),
    });
    return toIssuerResponse(issuer);
  }

  @Implements(FEDERATION_OPERATIONS.delete)
  async delete(
    @Param('tenant') tenant: string,
    @Param('id') id: string,
    @Caller() caller: ActingPrincipal,
  ): Promise<void> {
    await this.registry.delete(caller, tenant, id);
  }
}

function toRule(rule: FederationRuleDto): FederationRule {
  return {
    name: rule.name,
    audience: rule.audience,
    ...(rule.subject !== undefined && { subject: rule.subject }),
    claims: rule.claims,
    clientId: rule.client_id,
    scopes: rule.scopes,
  };
}

function toIssuerResponse(issuer: FederatedIssuer): FederatedIssuerDto {
  return {
    id: issuer.id,
    tenant: issuer.tenant,
    issuer: issuer.issuer,
    jwks_uri: issuer.jwksUri,
    rules: issuer.rules.map((rule) => ({
      name: rule.name,
      audience: rule.audience,
      ...(rule.subject !== undefined && { subject: rule.subject }),
      claims: rule.claims,
      client_id: rule.clientId,
      scopes: rule.scopes,
    })),
    created_at: issuer.createdAt.toISOString(),
    updated_at: issuer.updatedAt.toISOString(),
  };
}
