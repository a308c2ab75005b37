/**
 * The subset of OpenAPI 3.1 (and of JSON Schema 2020-12) the backend's document uses, typed so
 * that a misspelt keyword is a compile error rather than a silently ignored member.
 */

export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

export interface ReferenceObject {
  $ref: string;
  summary?: string;
  description?: string;
}

export interface SchemaObject {
  title?: string;
  description?: string;
  type?: JsonType | JsonType[];
  format?: string;
  enum?: ReadonlyArray<string | number | boolean | null>;
  const?: string | number | boolean | null;
  default?: unknown;
  examples?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
  readOnly?: boolean;
  writeOnly?: boolean;
  deprecated?: boolean;
  contentMediaType?: string;
}

export type Schema = SchemaObject | ReferenceObject;

export interface ExampleObject {
  summary?: string;
  description?: string;
  value: unknown;
}

export interface HeaderObject {
  description?: string;
  required?: boolean;
  schema: Schema;
}

export interface MediaTypeObject {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, ExampleObject>;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | ReferenceObject>;
  content?: Record<string, MediaTypeObject>;
}

export interface ParameterObject {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  description?: string;
  required?: boolean;
  deprecated?: boolean;
  schema: Schema;
  example?: unknown;
}

export interface RequestBodyObject {
  description?: string;
  required?: boolean;
  content: Record<string, MediaTypeObject>;
}

/** One entry of an operation's `security`: scheme name -> scopes (empty for non-OAuth schemes). */
export type SecurityRequirement = Record<string, string[]>;

export interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: Array<ParameterObject | ReferenceObject>;
  requestBody?: RequestBodyObject | ReferenceObject;
  responses: Record<string, ResponseObject | ReferenceObject>;
  /** `[]` means no credential; omitted means the document's default (none is set). */
  security?: SecurityRequirement[];
  deprecated?: boolean;
}

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options';

export type PathItemObject = { summary?: string; description?: string } & {
  [method in HttpMethod]?: OperationObject;
};

export type SecuritySchemeObject =
  | { type: 'http'; scheme: 'bearer'; bearerFormat?: string; description?: string }
  | { type: 'http'; scheme: 'basic'; description?: string }
  | { type: 'apiKey'; in: 'query' | 'header' | 'cookie'; name: string; description?: string };

export interface TagObject {
  name: string;
  description?: string;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect?: string;
  info: {
    title: string;
    version: string;
    summary?: string;
    description?: string;
    license?: { name: string; identifier?: string; url?: string };
  };
  servers: Array<{ url: string; description?: string }>;
  tags: TagObject[];
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, Schema>;
    responses: Record<string, ResponseObject>;
    parameters: Record<string, ParameterObject>;
    headers: Record<string, HeaderObject>;
    securitySchemes: Record<string, SecuritySchemeObject>;
  };
}

/** Paths of one area of the surface, merged by `openApiDocument`. */
export type Paths = Record<string, PathItemObject>;
