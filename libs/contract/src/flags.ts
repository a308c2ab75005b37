import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { TimestampProperty } from './fields';

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
