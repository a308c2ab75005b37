import type { FastifyRequest } from 'fastify';

export { INTERNAL_TOKEN_HEADER } from '@platform/internal';

/** A request as `createHttpApp` prepares it: form and unknown bodies keep their raw text. */
export type PlatformRequest = FastifyRequest & { rawBody?: string };

/** The media type of the request body, lower case and without parameters (`''` when absent). */
export function mediaType(request: Pick<FastifyRequest, 'headers'>): string {
  const header = request.headers['content-type'];
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

/** A path without its query string. */
export function requestPath(request: Pick<FastifyRequest, 'url'>): string {
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** The first value of a header that may arrive repeated. */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const OAUTH_ROUTE =
  /^(?:\/v1\/oauth\/(?:token|introspect|revoke|device_authorization)(?:\/|$)|\/internal\/v1\/oauth\/)/;

const SCIM_ROUTE = /^(?:\/internal\/v1)?\/scim\/v2(?:\/|$)/;

/** SCIM 2.0 routes: every error is the SCIM error schema (RFC 7644 section 3.12). */
export function isScimRoute(path: string): boolean {
  return SCIM_ROUTE.test(path);
}

/** Routes whose every error is RFC 6749 section 5.2 JSON, never problem+json. */
export function isOAuthRoute(path: string): boolean {
  return OAUTH_ROUTE.test(path);
}
