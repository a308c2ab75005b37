import { Controller, Get, Header, Inject, Param } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import type { PlatformConfig } from '@platform/config';
import {
  PublicOperation,
  SCIM_CONTENT_TYPE,
  ScimAnswers,
  ScimDiscoveryDto,
  ScimListResponseDto,
  ScimRefuses,
} from '@platform/contract';
import { ScimDiscovery } from '@platform/domain';
import { PLATFORM_CONFIG } from '../config';

const Discovery = (id: string, summary: string) =>
  PublicOperation({
    id,
    tag: 'Keys and discovery',
    summary,
    description: 'No credential (RFC 7644 section 4).',
  });

/** The SCIM discovery documents (RFC 7644 section 4): static, answered by the backend itself. */
@Controller('scim/v2')
export class ScimDiscoveryController {
  private readonly discovery: ScimDiscovery;

  constructor(@Inject(PLATFORM_CONFIG) config: PlatformConfig) {
    this.discovery = new ScimDiscovery(`${config.issuer}/scim/v2`);
  }

  @Get('ServiceProviderConfig')
  @Discovery('getScimServiceProviderConfig', 'What the SCIM service supports')
  @ScimAnswers(200, ScimDiscoveryDto, 'The ServiceProviderConfig (RFC 7643 section 5).')
  @Header('content-type', SCIM_CONTENT_TYPE)
  serviceProviderConfig(): object {
    return this.discovery.serviceProviderConfig;
  }

  @Get('ResourceTypes')
  @Discovery('listScimResourceTypes', 'The SCIM resource types: User and Group')
  @ScimAnswers(200, ScimListResponseDto, 'A ListResponse of ResourceTypes (RFC 7643 section 6).')
  @Header('content-type', SCIM_CONTENT_TYPE)
  resourceTypes(): object {
    return this.discovery.listResourceTypes();
  }

  @Get('ResourceTypes/:id')
  @Discovery('getScimResourceType', 'One SCIM resource type')
  @ApiParam({ name: 'id', example: 'User' })
  @ScimAnswers(200, ScimDiscoveryDto, 'The ResourceType.')
  @ScimRefuses(404, 'No such resource type.')
  @Header('content-type', SCIM_CONTENT_TYPE)
  resourceType(@Param('id') id: string): object {
    return this.discovery.resourceType(id);
  }

  @Get('Schemas')
  @Discovery('listScimSchemas', 'The SCIM schemas: User, EnterpriseUser, Group and the group roles extension')
  @ScimAnswers(200, ScimListResponseDto, 'A ListResponse of Schemas (RFC 7643 section 7).')
  @Header('content-type', SCIM_CONTENT_TYPE)
  schemas(): object {
    return this.discovery.listSchemas();
  }

  @Get('Schemas/:id')
  @Discovery('getScimSchema', 'One SCIM schema')
  @ApiParam({ name: 'id', example: 'urn:ietf:params:scim:schemas:core:2.0:User' })
  @ScimAnswers(200, ScimDiscoveryDto, 'The Schema, with every attribute definition.')
  @ScimRefuses(404, 'No such schema.')
  @Header('content-type', SCIM_CONTENT_TYPE)
  schema(@Param('id') id: string): object {
    return this.discovery.schema(id);
  }
}
