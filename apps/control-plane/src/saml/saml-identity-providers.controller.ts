import { Body, Controller, Inject, Param, Res } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import {
  RegisterSamlIdentityProviderDto,
  SAML_OPERATIONS,
  type SamlIdentityProviderDto,
} from '@platform/contract';
import {
  type ActingPrincipal,
  SamlRegistry,
  samlServiceProvider,
  type SamlIdentityProvider,
} from '@platform/domain';
import type { FastifyReply } from 'fastify';
import { Implements } from '../platform/implements';
import { PLATFORM_CONFIG } from '../platform/tokens';
import { Caller } from '../tenants/principal';

/** A tenant's SAML identity provider (docs/saml.md), for the principal the backend authorized. */
@Controller()
export class SamlIdentityProvidersController {
  constructor(
    private readonly registry: SamlRegistry,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  /** 201 a first registration; 200 a replaced one. */
  @Implements(SAML_OPERATIONS.put)
  async put(
    @Param('tenant') tenant: string,
    @Body() body: RegisterSamlIdentityProviderDto,
    @Caller() caller: ActingPrincipal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SamlIdentityProviderDto> {
    const { idp, created } = await this.registry.put(caller, tenant, {
      metadataXml: body.metadata_xml,
      ...(body.attribute_mapping !== undefined && { attributeMapping: body.attribute_mapping }),
      ...(body.role_mapping !== undefined && { roleMapping: body.role_mapping }),
      ...(body.want_response_signed !== undefined && { wantResponseSigned: body.want_response_signed }),
      ...(body.name_id_format !== undefined && { nameIdFormat: body.name_id_format }),
    });
    void reply.status(created ? 201 : 200);
    return this.toResponse(idp);
  }

  @Implements(SAML_OPERATIONS.get)
  async get(
    @Param('tenant') tenant: string,
    @Caller() caller: ActingPrincipal,
  ): Promise<SamlIdentityProviderDto> {
    return this.toResponse(await this.registry.get(caller, tenant));
  }

  @Implements(SAML_OPERATIONS.delete)
  async delete(@Param('tenant') tenant: string, @Caller() caller: ActingPrincipal): Promise<void> {
    await this.registry.delete(caller, tenant);
  }

  private toResponse(idp: SamlIdentityProvider): SamlIdentityProviderDto {
    const sp = samlServiceProvider(this.config.issuer, idp.tenant);
    return {
      tenant: idp.tenant,
      entity_id: idp.entityId,
      sso_url: idp.ssoUrl,
      certificates: idp.certificates,
      attribute_mapping: idp.attributeMapping,
      role_mapping: idp.roleMapping,
      want_response_signed: idp.wantResponseSigned,
      name_id_format: idp.nameIdFormat,
      service_provider: {
        entity_id: sp.entityId,
        acs_url: sp.acsUrl,
        login_url: sp.loginUrl,
        metadata_url: sp.entityId,
      },
      created_at: idp.createdAt.toISOString(),
      updated_at: idp.updatedAt.toISOString(),
    };
  }
}
