import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { TimestampProperty } from './fields';
import { operation } from './operation-table';

const FLAGS = {
  type: 'object',
  additionalProperties: { type: 'object' },
  description:
    'flagd flag definitions (https://flagd.dev/reference/flag-definitions/): each flag has `state` (ENABLED | DISABLED), `variants`, `defaultVariant` and optional `targeting` (JsonLogic with `fractional`, `sem_ver`, `starts_with`, `ends_with`), checked against flagd’s schema.',
  example: {
    'new-checkout': {
      state: 'ENABLED',
      variants: { on: true, off: false },
      defaultVariant: 'off',
      targeting: {
        if: [
          { in: ['tenant_admin', { var: 'roles' }] },
          'on',
          {
            fractional: [
              ['on', 10],
              ['off', 90],
            ],
          },
        ],
      },
    },
  },
} as const;

/** Not validated here: the domain checks the document against flagd's schema, in its words. */
@ApiSchema({
  name: 'FlagDefinitionsUpdate',
  description: 'The complete flag definitions of a tenant (a flagd document).',
})
export class FlagDefinitionsUpdateDto {
  @ApiProperty(FLAGS)
  @Allow()
  flags: unknown;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'flagd flag-set metadata.',
  })
  @Allow()
  metadata?: unknown;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'flagd shared targeting fragments (`$ref`).',
  })
  @Allow()
  $evaluators?: unknown;
}

@ApiSchema({
  name: 'FlagDefinitions',
  description: 'A tenant’s flag definitions, as every sidecar evaluates them.',
})
export class FlagDefinitionsDto {
  @ApiProperty() tenant: string;
  @ApiProperty(FLAGS) flags: object;
  @ApiProperty({ description: '1 for the first write, one more for each.' }) version: number;
  @TimestampProperty() updated_at: string;
}

const FLAGS_PATH = 'api/v1/tenants/:tenant/flags';
const NO_FLAGS = 'The tenant has no flag definitions.';
const ADMIN_OF_TENANT = { kind: 'admin', tenantParam: 'tenant' } as const;
const TENANT = { tenant: { example: 'acme' } };

/**
 * A tenant's feature flags (docs/flags.md), evaluated by the sidecars' FlagService; admin Bearer
 * token, same paths at the edge and the control plane. A change reaches every sidecar within a
 * second.
 */
export const FLAG_OPERATIONS = {
  get: operation({
    id: 'getFlagDefinitions',
    tag: 'Feature flags',
    summary: 'The flag definitions of a tenant',
    method: 'GET',
    path: FLAGS_PATH,
    caller: ADMIN_OF_TENANT,
    params: TENANT,
    answer: { status: 200, model: FlagDefinitionsDto, description: 'The definitions and their version.' },
    refuses: { 404: NO_FLAGS },
  }),
  put: operation({
    id: 'putFlagDefinitions',
    tag: 'Feature flags',
    summary: 'Set the flag definitions of a tenant',
    description:
      'Replaces them (a new version), checked against flagd’s schema: a document it refuses is **400** with where and why. Every sidecar evaluates the new definitions within a second. Audited (`flags.changed`).',
    method: 'PUT',
    path: FLAGS_PATH,
    caller: ADMIN_OF_TENANT,
    params: TENANT,
    body: { type: 'json', model: FlagDefinitionsUpdateDto },
    answer: { status: 200, model: FlagDefinitionsDto, description: 'The definitions as stored.' },
  }),
  delete: operation({
    id: 'deleteFlagDefinitions',
    tag: 'Feature flags',
    summary: 'Remove the flags of a tenant',
    method: 'DELETE',
    path: FLAGS_PATH,
    caller: ADMIN_OF_TENANT,
    params: TENANT,
    answer: { status: 204, description: 'Removed: every flag of the tenant evaluates to its default.' },
    refuses: { 404: NO_FLAGS },
  }),
};
