import type { Type } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, type ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';
import { CLIENT_ID_PATTERN, ROLE_BUNDLE, SCOPE_PATTERN } from '@platform/domain';

/**
 * Property documentation reused across shapes. Patterns and enumerations come from the domain, so
 * the document cannot drift from what the registry enforces.
 */
export const ClientIdProperty = (options: ApiPropertyOptions = {}) =>
  ApiProperty({
    type: 'string',
    pattern: CLIENT_ID_PATTERN.source,
    description: '3 to 64 characters of `A-Z a-z 0-9 . _ -`, chosen by the caller at registration.',
    example: 'billing-worker',
    ...options,
  } as ApiPropertyOptions);

export const ScopeNamesProperty = (options: ApiPropertyOptions = {}) =>
  ApiProperty({
    type: 'string',
    isArray: true,
    pattern: SCOPE_PATTERN.source,
    description:
      '`resource.action`; a declared `resource.*` permits every `resource.<action>` and itself (`jobs.*` covers `jobs.read`).',
    example: ['jobs.read', 'jobs.*'],
    ...options,
  } as ApiPropertyOptions);

export const ScopesProperty = (options: ApiPropertyOptions = {}) =>
  ApiProperty({
    type: 'string',
    description: 'Space-separated scope names.',
    example: 'jobs.read files.read',
    ...options,
  } as ApiPropertyOptions);

export const RolesProperty = (options: ApiPropertyOptions = {}) =>
  ApiProperty({
    enum: [...ROLE_BUNDLE],
    isArray: true,
    description: 'Roles of the default role bundle.',
    ...options,
  } as ApiPropertyOptions);

export const TimestampProperty = (options: ApiPropertyOptions = {}) =>
  ApiProperty({
    type: 'string',
    format: 'date-time',
    description: 'ISO 8601 UTC.',
    ...options,
  } as ApiPropertyOptions);

export const UnixSecondsProperty = (options: ApiPropertyOptions = {}) =>
  ApiProperty({ type: 'integer', description: 'Unix seconds.', ...options } as ApiPropertyOptions);

/**
 * A member holding one `model` or null. Swagger's `nullable` on a model writes an `allOf` that
 * null cannot match; this is the JSON Schema that can.
 */
export const NullableModelProperty =
  (model: Type<unknown>, options: ApiPropertyOptions = {}): PropertyDecorator =>
  (target, key) => {
    // The document defines the model through the class that names it.
    ApiExtraModels(model)(target.constructor);
    ApiProperty({
      oneOf: [{ $ref: getSchemaPath(model) }, { type: 'null' }],
      ...options,
    } as ApiPropertyOptions)(target, key);
  };

/** Any JSON value: an object, an array, a string, a number, a boolean or null. */
export const ANY_JSON_SCHEMA = {
  anyOf: ['object', 'array', 'string', 'number', 'boolean', 'null'].map((type) => ({ type })),
} as const;
