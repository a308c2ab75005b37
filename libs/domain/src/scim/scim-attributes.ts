import { scimErrors } from './scim-error';
import type { AttributeDefinition, SchemaDefinition } from './scim-schemas';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A resource body read against its schemas (RFC 7643): attribute names matched
 * case-insensitively and written as the schema spells them, each value checked against its
 * type, `"True"`/`"false"` strings read as booleans (Microsoft Entra ID sends them), read-only
 * and unknown attributes dropped (RFC 7644 section 3.5.1: ignored on input), nulls read as
 * unassigned. Extension attributes stay under their schema URN. Throws `invalidValue`.
 */
export function readAttributes(body: unknown, core: SchemaDefinition, extensions: SchemaDefinition[]): Json {
  if (!isObject(body)) throw scimErrors.invalidSyntax('the request body must be a JSON object');
  const resource = readComplex(body, core.attributes, '');
  for (const extension of extensions) {
    const key = Object.keys(body).find((k) => k.toLowerCase() === extension.id.toLowerCase());
    if (key === undefined || body[key] === null || body[key] === undefined) continue;
    if (!isObject(body[key])) throw scimErrors.invalidValue(`${extension.id} must be an object`);
    const values = readComplex(body[key], extension.attributes, `${extension.id}:`);
    if (Object.keys(values).length > 0) resource[extension.id] = values;
  }
  return resource;
}

function readComplex(input: Json, attributes: AttributeDefinition[], prefix: string): Json {
  const output: Json = {};
  for (const [key, value] of Object.entries(input)) {
    const definition = attributes.find((a) => a.name.toLowerCase() === key.toLowerCase());
    if (!definition || definition.mutability === 'readOnly' || value === null || value === undefined)
      continue;
    output[definition.name] = readValue(value, definition, `${prefix}${definition.name}`);
  }
  return output;
}

function readValue(value: unknown, definition: AttributeDefinition, path: string): unknown {
  if (!definition.multiValued) return readSingle(value, definition, path);
  if (!Array.isArray(value)) throw scimErrors.invalidValue(`${path} must be an array`);
  const items = value.filter((v) => v !== null).map((v) => readSingle(v, definition, path));
  const primaries = items.filter((item) => isObject(item) && item.primary === true);
  if (primaries.length > 1) throw scimErrors.invalidValue(`at most one of ${path} may be primary`);
  return items;
}

function readSingle(value: unknown, definition: AttributeDefinition, path: string): unknown {
  switch (definition.type) {
    case 'complex':
      if (!isObject(value)) throw scimErrors.invalidValue(`${path} must be an object`);
      return readComplex(value, definition.subAttributes ?? [], `${path}.`);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
      throw scimErrors.invalidValue(`${path} must be a boolean`);
    case 'integer':
      if (Number.isInteger(value)) return value;
      throw scimErrors.invalidValue(`${path} must be an integer`);
    default:
      if (typeof value === 'string') return value;
      throw scimErrors.invalidValue(`${path} must be a string`);
  }
}

/** The value at `names` of a resource (case-insensitive), the first non-empty of multi-valued ones. */
export function valueAt(resource: Json, names: readonly string[]): unknown {
  let current: unknown = resource;
  for (const name of names) {
    if (Array.isArray(current))
      current = current.find((item) => isObject(item) && item.primary === true) ?? current[0];
    if (!isObject(current)) return undefined;
    const key = Object.keys(current).find((k) => k.toLowerCase() === name.toLowerCase());
    current = key === undefined ? undefined : current[key];
  }
  return current;
}
