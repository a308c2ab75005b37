import { headerRef, HTML, jsonContent, responseRef, schemaRef } from './components';
import type { OperationObject, Paths } from './openapi-types';

const health: OperationObject = {
  operationId: 'getHealth',
  summary: 'Health',
  tags: ['Platform'],
  description:
    'The specification leaves the credential "not shown"; decided: none, so load balancers and orchestrators can probe it, and the answer holds nothing secret. **200** when the sidecar that validates every token is serving, **503** `{status: "degraded", sidecar: "unavailable"}` otherwise, so traffic stops reaching a pod that would refuse it.',
  security: [],
  responses: {
    '200': {
      description: 'Healthy.',
      headers: { 'Cache-Control': headerRef('CacheControlNoStore') },
      content: jsonContent(schemaRef('Health'), {
        ok: { value: { status: 'ok', sidecar: 'connected', version: '0.9.0' } },
      }),
    },
    '503': {
      description: 'The sidecar is not serving.',
      headers: { 'Cache-Control': headerRef('CacheControlNoStore') },
      content: jsonContent(schemaRef('Health'), {
        degraded: { value: { status: 'degraded', sidecar: 'unavailable', version: '0.9.0' } },
      }),
    },
  },
};

const me: OperationObject = {
  operationId: 'getMe',
  summary: 'The caller',
  tags: ['Platform'],
  description:
    'Any valid access token: who the token says the caller is. A protected route to try tokens on.',
  security: [{ bearerAuth: [] }],
  responses: {
    '200': { description: 'The caller.', content: jsonContent(schemaRef('Me')) },
    '400': responseRef('BearerInvalidRequest'),
    '401': responseRef('BearerUnauthorized'),
    '500': responseRef('ServerError'),
    '503': responseRef('Unavailable'),
  },
};

const ping: OperationObject = {
  operationId: 'ping',
  summary: 'Unprotected twin of /v1/me',
  tags: ['Platform'],
  description: 'No credential; the benchmark compares it with `/v1/me` to measure token validation.',
  security: [],
  responses: { '200': { description: 'Always.', content: jsonContent(schemaRef('Ping')) } },
};

const openapi: OperationObject = {
  operationId: 'getOpenApiDocument',
  summary: 'This document',
  tags: ['Platform'],
  description:
    'The OpenAPI 3.1 document of the backend. No credential; `Cache-Control: public, max-age=300`.',
  security: [],
  responses: {
    '200': {
      description: 'The document.',
      headers: { 'Cache-Control': { schema: { type: 'string', const: 'public, max-age=300' } } },
      content: { 'application/json': { schema: { type: 'object' } } },
    },
  },
};

const docs: OperationObject = {
  operationId: 'getApiDocs',
  summary: 'Browsable API documentation',
  tags: ['Platform'],
  description:
    "Swagger UI over `/openapi.json`, served entirely by the backend (its assets under `/docs/`, no inline script, `Content-Security-Policy` allowing only 'self', plus `data:` images for the stylesheet's icons). No credential.",
  security: [],
  responses: {
    '200': {
      description: 'The HTML page.',
      headers: { 'Content-Security-Policy': headerRef('ContentSecurityPolicy') },
      content: { [HTML]: { schema: { type: 'string' } } },
    },
  },
};

export const platformPaths: Paths = {
  '/health': { get: health },
  '/v1/me': { get: me },
  '/v1/ping': { get: ping },
  '/openapi.json': { get: openapi },
  '/docs': { get: docs },
};
