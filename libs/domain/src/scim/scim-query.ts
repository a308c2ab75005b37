import { filter as compileFilter, type Filter, parse } from 'scim2-parse-filter';
import { valueAt } from './scim-attributes';
import { scimErrors } from './scim-error';
import {
  attributeAt,
  SCIM_MAX_RESULTS,
  SCIM_SCHEMAS,
  type SchemaDefinition,
  splitPath,
} from './scim-schemas';

type Json = Record<string, unknown>;

/** RFC 7644 section 3.4.2: what a list request asks for. */
export interface ListQuery {
  filter?: Filter;
  /** 1-based. */
  startIndex: number;
  count: number;
  sortBy?: string;
  sortOrder: 'ascending' | 'descending';
  projection: Projection;
}

export interface Projection {
  attributes?: string[];
  excludedAttributes?: string[];
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The query parameters of a list request, checked: a filter that does not parse is
 * `invalidFilter`; `startIndex` below 1 reads as 1 and `count` below 0 as 0 (section 3.4.2.4);
 * `count` above the service provider's maximum reads as the maximum.
 */
export function readListQuery(query: Record<string, unknown>): ListQuery {
  const text = (name: string): string | undefined => {
    const value = query[name];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  };
  const integer = (name: string, fallback: number): number => {
    const value = text(name);
    if (value === undefined) return fallback;
    if (!/^-?\d+$/.test(value)) throw scimErrors.invalidValue(`${name} must be an integer`);
    return Number(value);
  };
  const sortOrder = text('sortOrder') ?? 'ascending';
  if (sortOrder !== 'ascending' && sortOrder !== 'descending') {
    throw scimErrors.invalidValue('sortOrder must be ascending or descending');
  }
  const filterText = text('filter');
  const list = (name: string) =>
    text(name)
      ?.split(',')
      .map((a) => a.trim())
      .filter((a) => a !== '');
  return {
    ...(filterText !== undefined && { filter: parseFilter(filterText) }),
    startIndex: Math.max(1, integer('startIndex', 1)),
    count: Math.min(SCIM_MAX_RESULTS, Math.max(0, integer('count', SCIM_MAX_RESULTS))),
    ...(text('sortBy') !== undefined && { sortBy: text('sortBy') }),
    sortOrder,
    projection: { attributes: list('attributes'), excludedAttributes: list('excludedAttributes') },
  };
}

/** The full RFC 7644 section 3.4.2.2 grammar, parsed by scim2-parse-filter. */
export function parseFilter(text: string): Filter {
  try {
    return parse(text);
  } catch (error) {
    throw scimErrors.invalidFilter(`the filter does not parse: ${(error as Error).message}`);
  }
}

/** The userName an `userName eq "..."` filter asks for (how identity providers look a user up). */
export function userNameLookup(filter: Filter | undefined): string | undefined {
  if (filter?.op !== 'eq' || typeof filter.compValue !== 'string') return undefined;
  const path = filter.attrPath.toLowerCase();
  return path === 'username' || path === `${SCIM_SCHEMAS.user.toLowerCase()}:username`
    ? filter.compValue
    : undefined;
}

/**
 * The ListResponse of `resources` for `query`: filtered (attribute names case-insensitive,
 * values case-insensitive unless the attribute is caseExact, as RFC 7643 section 2.1 says),
 * sorted (unassigned values last), paged and projected.
 */
export function listResponse(
  resources: Json[],
  query: ListQuery,
  schemas: readonly SchemaDefinition[],
): Json {
  let matching = resources;
  if (query.filter !== undefined) {
    const test = compileFilter(foldFilter(query.filter, schemas, ''));
    matching = resources.filter((resource) => test(foldResource(resource, schemas, '')));
  }
  if (query.sortBy !== undefined) matching = sorted(matching, query.sortBy, query.sortOrder, schemas);
  const page = matching.slice(query.startIndex - 1, query.startIndex - 1 + query.count);
  return {
    schemas: [SCIM_SCHEMAS.listResponse],
    totalResults: matching.length,
    startIndex: query.startIndex,
    itemsPerPage: page.length,
    Resources: page.map((resource) => project(resource, query.projection, schemas)),
  };
}

/**
 * `attributes` keeps only the named ones, `excludedAttributes` drops the named ones; `id` and
 * `schemas` are always returned (RFC 7643 section 7, `returned: always`).
 */
export function project(resource: Json, projection: Projection, schemas: readonly SchemaDefinition[]): Json {
  if (projection.attributes?.length) {
    const kept: Json = { schemas: resource.schemas, id: resource.id };
    for (const attribute of projection.attributes) copyPath(resource, kept, resourcePath(attribute, schemas));
    return kept;
  }
  if (!projection.excludedAttributes?.length) return resource;
  const result = structuredClone(resource);
  for (const attribute of projection.excludedAttributes) {
    const path = resourcePath(attribute, schemas);
    if (path.length === 1 && ['id', 'schemas'].includes(path[0].toLowerCase())) continue;
    removePath(result, path);
  }
  return result;
}

/** A path as it reaches into a resource: core attributes at the top, extensions under their URN. */
function resourcePath(path: string, schemas: readonly SchemaDefinition[]): string[] {
  const { schema, names } = splitPath(path, schemas);
  return schema === undefined || schema === schemas[0] ? names : [schema.id, ...names];
}

function keyOf(object: Json, name: string): string | undefined {
  return Object.keys(object).find((k) => k.toLowerCase() === name.toLowerCase());
}

function copyPath(from: Json, to: Json, path: string[]): void {
  const key = keyOf(from, path[0]);
  if (key === undefined) return;
  const value = from[key];
  if (path.length === 1) {
    to[key] = value;
  } else if (Array.isArray(value)) {
    const existing = Array.isArray(to[key]) ? (to[key] as Json[]) : value.map(() => ({}));
    value.forEach((item, i) => isObject(item) && copyPath(item, existing[i], path.slice(1)));
    to[key] = existing;
  } else if (isObject(value)) {
    const existing = isObject(to[key]) ? to[key] : {};
    copyPath(value, existing, path.slice(1));
    to[key] = existing;
  }
}

function removePath(object: Json, path: string[]): void {
  const key = keyOf(object, path[0]);
  if (key === undefined) return;
  if (path.length === 1) {
    delete object[key];
    return;
  }
  const value = object[key];
  for (const item of Array.isArray(value) ? value : [value])
    if (isObject(item)) removePath(item, path.slice(1));
}

function sorted(
  resources: Json[],
  sortBy: string,
  order: 'ascending' | 'descending',
  schemas: readonly SchemaDefinition[],
): Json[] {
  const path = resourcePath(sortBy, schemas);
  const caseExact = attributeAt(sortBy, schemas)?.caseExact ?? false;
  const key = (resource: Json): string | number | boolean | undefined => {
    const value = valueAt(resource, path);
    if (typeof value === 'string') return caseExact ? value : value.toLowerCase();
    return typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
  };
  const direction = order === 'ascending' ? 1 : -1;
  return [...resources].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
    return x < y ? -direction : x > y ? direction : 0;
  });
}

/** The filter with core-URN prefixes dropped and compared strings lower-cased where caseExact is false. */
function foldFilter(filter: Filter, schemas: readonly SchemaDefinition[], parent: string): Filter {
  switch (filter.op) {
    case 'and':
    case 'or':
      return { ...filter, filters: filter.filters.map((f) => foldFilter(f, schemas, parent)) };
    case 'not':
      return { ...filter, filter: foldFilter(filter.filter, schemas, parent) };
    case '[]': {
      const attrPath = unqualified(filter.attrPath, schemas);
      return {
        ...filter,
        attrPath,
        valFilter: foldFilter(filter.valFilter, schemas, qualifiedIn(parent, attrPath)),
      };
    }
    case 'pr':
      return { ...filter, attrPath: unqualified(filter.attrPath, schemas) };
    default: {
      const attrPath = valueOfComplex(unqualified(filter.attrPath, schemas), parent, schemas);
      const caseExact = attributeAt(qualifiedIn(parent, attrPath), schemas)?.caseExact ?? false;
      const { compValue } = filter;
      return {
        ...filter,
        attrPath,
        compValue: typeof compValue === 'string' && !caseExact ? compValue.toLowerCase() : compValue,
      };
    }
  }
}

/** `emails co "x"` compares the `value` of each email (RFC 7644 section 3.4.2.2). */
function valueOfComplex(attrPath: string, parent: string, schemas: readonly SchemaDefinition[]): string {
  const definition = attributeAt(qualifiedIn(parent, attrPath), schemas);
  const hasValue = definition?.subAttributes?.some((a) => a.name === 'value') ?? false;
  return definition?.type === 'complex' && hasValue ? `${attrPath}.value` : attrPath;
}

const qualifiedIn = (parent: string, path: string) => (parent === '' ? path : `${parent}.${path}`);

function unqualified(path: string, schemas: readonly SchemaDefinition[]): string {
  const core = schemas[0].id;
  return path.toLowerCase().startsWith(`${core.toLowerCase()}:`) ? path.slice(core.length + 1) : path;
}

/** The resource with every string lower-cased where its attribute is not caseExact. */
function foldResource(value: unknown, schemas: readonly SchemaDefinition[], path: string): unknown {
  if (typeof value === 'string') return attributeAt(path, schemas)?.caseExact ? value : value.toLowerCase();
  if (Array.isArray(value)) return value.map((item) => foldResource(item, schemas, path));
  if (!isObject(value)) return value;
  const folded: Json = {};
  for (const [key, item] of Object.entries(value))
    folded[key] = foldResource(item, schemas, childPath(path, key, schemas));
  return folded;
}

/** `name` + `givenName` -> `name.givenName`; an extension's URN key opens `urn:...:` paths. */
function childPath(path: string, key: string, schemas: readonly SchemaDefinition[]): string {
  if (path === '') return schemas.some((s) => s.id.toLowerCase() === key.toLowerCase()) ? `${key}:` : key;
  return path.endsWith(':') ? `${path}${key}` : `${path}.${key}`;
}
