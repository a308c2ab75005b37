import { scimErrors } from './scim-error';
import {
  RESOURCE_TYPES,
  SCIM_SCHEMA_DEFINITIONS,
  SCIM_SCHEMAS,
  SERVICE_PROVIDER_CONFIG,
} from './scim-schemas';

type Json = Record<string, unknown>;

/**
 * The discovery documents of RFC 7644 section 4 under `baseUrl` (`https://.../scim/v2`): what
 * an identity provider reads before it provisions. The same for every caller and tenant.
 */
export class ScimDiscovery {
  readonly serviceProviderConfig: Json;
  private readonly resourceTypes: Json[];
  private readonly schemas: Json[];

  constructor(baseUrl: string) {
    this.serviceProviderConfig = {
      schemas: [SCIM_SCHEMAS.serviceProviderConfig],
      ...SERVICE_PROVIDER_CONFIG,
      meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
    };
    this.resourceTypes = RESOURCE_TYPES.map((type) => ({
      schemas: [SCIM_SCHEMAS.resourceType],
      ...type,
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/${type.id}` },
    }));
    this.schemas = SCIM_SCHEMA_DEFINITIONS.map((schema) => ({
      schemas: [SCIM_SCHEMAS.schema],
      ...schema,
      meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${schema.id}` },
    }));
  }

  listResourceTypes(): Json {
    return listOf(this.resourceTypes);
  }

  resourceType(id: string): Json {
    return this.resourceTypes.find((t) => t.id === id) ?? notFound('ResourceType', id);
  }

  listSchemas(): Json {
    return listOf(this.schemas);
  }

  schema(id: string): Json {
    return this.schemas.find((s) => s.id === id) ?? notFound('Schema', id);
  }
}

function listOf(resources: Json[]): Json {
  return {
    schemas: [SCIM_SCHEMAS.listResponse],
    totalResults: resources.length,
    startIndex: 1,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

function notFound(kind: string, id: string): never {
  throw scimErrors.notFound(`no ${kind} ${id}`);
}
