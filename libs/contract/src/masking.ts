import { ApiProperty, type ApiPropertyOptions, ApiSchema } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { TimestampProperty } from './fields';
import { operation } from './operation-table';

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

const MASKING_PATH = 'api/v1/tenants/:tenant/masking';
const NO_SETTINGS = 'The tenant has no masking settings.';
const ADMIN_OF_TENANT = { kind: 'admin', tenantParam: 'tenant' } as const;
const TENANT = { tenant: { example: 'acme' } };

/**
 * A tenant's masking settings (docs/masking.md), applied by the sidecars' MaskingService to every
 * call of the tenant; admin Bearer token, same paths at the edge and the control plane.
 */
export const MASKING_OPERATIONS = {
  get: operation({
    id: 'getMaskingSettings',
    tag: 'Masking',
    summary: 'The masking settings of a tenant',
    method: 'GET',
    path: MASKING_PATH,
    caller: ADMIN_OF_TENANT,
    params: TENANT,
    answer: { status: 200, model: MaskingSettingsDto, description: 'The settings and their version.' },
    refuses: { 404: NO_SETTINGS },
  }),
  put: operation({
    id: 'putMaskingSettings',
    tag: 'Masking',
    summary: 'Set the masking settings of a tenant',
    description:
      'Its custom patterns apply to every MaskString and Mask of the tenant, at every sidecar within a second. A pattern the service refuses is **400** with the reason. Audited (`masking.settings_changed`).',
    method: 'PUT',
    path: MASKING_PATH,
    caller: ADMIN_OF_TENANT,
    params: TENANT,
    body: { type: 'json', model: MaskingSettingsUpdateDto },
    answer: { status: 200, model: MaskingSettingsDto, description: 'The settings as stored.' },
  }),
  delete: operation({
    id: 'deleteMaskingSettings',
    tag: 'Masking',
    summary: 'Remove the masking settings of a tenant',
    method: 'DELETE',
    path: MASKING_PATH,
    caller: ADMIN_OF_TENANT,
    params: TENANT,
    answer: { status: 204, description: 'Removed: only the built-in detectors apply.' },
    refuses: { 404: NO_SETTINGS },
  }),
};
