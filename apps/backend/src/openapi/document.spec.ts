import { compileErrors, validate } from '@readme/openapi-parser';
import { PLATFORM_VERSION } from '@platform/config';
import { openApiDocument } from './document';
import type { OperationObject, ReferenceObject, ResponseObject } from './openapi-types';

const ISSUER = 'https://auth.example.test';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

function operations(): Array<[string, OperationObject]> {
  const document = openApiDocument({ issuer: ISSUER });
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method];
      return operation === undefined
        ? []
        : [[`${method.toUpperCase()} ${path}`, operation] as [string, OperationObject]];
    }),
  );
}

describe(openApiDocument.name, () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    // validate() dereferences in place: give it a copy, as a client would parse it from JSON.
    const result = await validate(JSON.parse(JSON.stringify(openApiDocument({ issuer: ISSUER }))));
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.specification).toBe('OpenAPI');
    expect(result.warnings).toEqual([]);
  });

  it('names the platform version and the configured issuer', () => {
    const document = openApiDocument({ issuer: ISSUER });
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe(PLATFORM_VERSION);
    expect(document.servers).toEqual([{ url: ISSUER, description: expect.any(String) }]);
  });

  it('serializes to JSON without losing anything', () => {
    const document = openApiDocument({ issuer: ISSUER });
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
  });

  it('gives every operation an error answer and a declared security requirement', () => {
    for (const [name, operation] of operations()) {
      expect({ name, security: operation.security }).toEqual({ name, security: expect.any(Array) });
      const statuses = Object.keys(operation.responses);
      expect({ name, statuses }).toEqual({
        name,
        statuses: expect.arrayContaining([expect.stringMatching(/^[23]/)]),
      });
    }
  });

  it('documents RFC 6749 errors on the OAuth endpoints and RFC 6750 challenges on Bearer routes', () => {
    const document = openApiDocument({ issuer: ISSUER });
    const token = document.paths['/v1/oauth/token'].post!;
    expect(token.responses['401']).toEqual({ $ref: '#/components/responses/OAuthInvalidClient' });
    const tokenErrors = token.responses['400'] as ResponseObject;
    expect(tokenErrors.content?.['application/json'].schema).toEqual({
      $ref: '#/components/schemas/OAuthError',
    });
    expect(Object.keys(tokenErrors.content?.['application/json'].examples ?? {})).toEqual(
      expect.arrayContaining(['invalidScope', 'invalidGrantVerifier', 'unsupportedGrantType']),
    );
    expect(document.components.responses.BearerUnauthorized.headers?.['WWW-Authenticate']).toEqual({
      $ref: '#/components/headers/WwwAuthenticateBearer',
    });
    const register = document.paths['/v1/oauth/apps'].post!;
    expect(register.responses['403']).toEqual({ $ref: '#/components/responses/AdminForbidden' });
    expect(register.security).toEqual([{ bearerAuth: [] }]);
  });

  it('records each decision the specification leaves "not shown"', () => {
    const document = openApiDocument({ issuer: ISSUER });
    const description = document.info.description ?? '';
    for (const topic of [
      'Item shape of the app listing',
      'Scope definition',
      'Token event stream',
      'Login family bodies',
      'Service accounts',
      'Status codes per condition',
      'How an admin token is obtained',
    ]) {
      expect(description).toContain(topic);
    }
    const described = (path: string, method: 'get' | 'post'): string =>
      document.paths[path][method]?.description ?? '';
    expect(described('/v1/oauth/apps', 'get')).toContain('not shown');
    expect(described('/api/v1/scopes', 'post')).toContain('not shown');
    expect(described('/api/v1/token-events', 'get')).toContain('not shown');
    expect(described('/api/v1/auth/refresh', 'post')).toContain('not shown');
    expect(described('/api/v1/auth/validate', 'post')).toContain('not shown');
    expect(described('/api/v1/apps/register', 'post')).toContain('decided');
    expect(described('/api/v1/apps/{app_id}/credentials/rotate', 'post')).toContain('not shown');
  });

  it('declares each security scheme it uses', () => {
    const document = openApiDocument({ issuer: ISSUER });
    const used = new Set(
      operations().flatMap(([, op]) => (op.security ?? []).flatMap((r) => Object.keys(r))),
    );
    expect([...used].sort()).toEqual(Object.keys(document.components.securitySchemes).sort());
  });

  it('has no response without a description', () => {
    for (const [name, operation] of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const ok =
          '$ref' in response ? (response as ReferenceObject).$ref !== '' : response.description !== '';
        expect({ name, status, ok }).toEqual({ name, status, ok: true });
      }
    }
  });
});
