import { ApiProperty, type ApiPropertyOptions, ApiSchema } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { TimestampProperty } from './fields';

const PATTERNS: ApiPropertyOptions = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      name: { type: 'string', pattern: '^[A-Z][A-Z0-9_]{0,63}$' },
      regex: { type: 'string', maxLength: 256 },
    },
    required: ['name', 'regex'],
  },
  maxItems: 20,
  description:
    'Patterns every MaskString and Mask of the tenant detects beside the built-in ones, as entity type `name`: JavaScript regular expressions of at most 256 characters, refused when they could backtrack catastrophically or match the empty string.',
  example: [{ name: 'EMPLOYEE_ID', regex: 'EMP-\\d{6}' }],
};

/** Not validated here: the domain checks the patterns as the masking service does. */
@ApiSchema({ name: 'MaskingSettingsUpdate', description: 'A tenant’s masking settings, complete.' })
export class MaskingSettingsUpdateDto {
  @ApiProperty(PATTERNS)
  @Allow()
  custom_patterns: unknown;
}

@ApiSchema({
  name: 'MaskingSettings',
  description: 'A tenant’s masking settings, as every sidecar applies them.',
})
export class MaskingSettingsDto {
  @ApiProperty() tenant: string;
  @ApiProperty(PATTERNS) custom_patterns: object[];
  @ApiProperty() version: number;
  @TimestampProperty() updated_at: string;
}
