import Ajv from 'ajv';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { SchemaObject } from 'ajv';
import { validationFailed } from '@platform/domain';

const DEFINITIONS = '#/definitions/';

/**
 * The body check of a route on the token hot path: the DTO's own class-validator decorators as
 * a JSON Schema (class-validator-jsonschema), compiled once by Ajv. The DTO stays the one source
 * of the shape; what changes is the price: Nest's ValidationPipe builds class instances and
 * walks class-validator's metadata for every nested object, which was a sixth of the control
 * plane's main thread per token and a third of what it allocated (docs/performance.md). As
 * with that pipe's `whitelist`, properties the DTO does not declare are dropped; a body that
 * breaks a rule throws `validation_failed` (400). Call it from the handler on `request.body`:
 * a `@Body()` typed with the DTO would run the global pipe as well.
 */
export function compileBodyValidator<T extends object>(dto: new () => T): (body: unknown) => T {
  const schemas: Record<string, SchemaObject> = validationMetadatasToSchemas({
    classTransformerMetadataStorage: defaultMetadataStorage,
    refPointerPrefix: DEFINITIONS,
  });
  const ajv = new Ajv({ removeAdditional: 'all' });
  const validate = ajv.compile<T>({ ...schemas[dto.name], definitions: reachable(schemas, dto.name) });
  return (body) => {
    if (validate(body)) return body;
    throw validationFailed(ajv.errorsText(validate.errors, { dataVar: 'body' }));
  };
}

/** The schemas `name` refers to, directly or not (every DTO loaded has one; Ajv gets only these). */
function reachable(schemas: Record<string, SchemaObject>, name: string): Record<string, SchemaObject> {
  const found: Record<string, SchemaObject> = {};
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith(DEFINITIONS)) {
        const target = inner.slice(DEFINITIONS.length);
        if (!(target in found)) {
          found[target] = schemas[target];
          visit(schemas[target]);
        }
      } else visit(inner);
    }
  };
  visit(schemas[name]);
  return found;
}
