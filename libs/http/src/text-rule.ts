import type { CanActivate, ExecutionContext } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ROUTE_AUTHORITY, type RouteAuthority } from '@platform/contract';
import {
  basicCredentials,
  findUnstorableText,
  OAuthError,
  scimErrors,
  validationFailed,
  type UnstorableText,
} from '@platform/domain';
import type { FastifyRequest } from 'fastify';
import { headerValue, isOAuthRoute, isScimRoute, mediaType, requestPath } from './request';

/**
 * Body members a route keeps as opaque text, exactly (a secret's value, a job's payload): a NUL
 * is allowed there, as nowhere else (`textFault`). Declared on the backend's route and the
 * control plane's alike.
 */
export const OpaqueBodyMembers = (...members: string[]): MethodDecorator =>
  RouteConfig({ opaqueBodyMembers: members });

/**
 * The rule as the first guard of every route, so the route's own filters answer a refusal in its
 * format (RFC 6749 JSON, SCIM, problem+json, the browser routes' pages).
 */
export class StorableTextGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const authority = (Reflect.getMetadata(ROUTE_AUTHORITY, context.getHandler()) ??
      Reflect.getMetadata(ROUTE_AUTHORITY, context.getClass())) as RouteAuthority | undefined;
    const refusal = unstorableTextRefusal(
      context.switchToHttp().getRequest<FastifyRequest>(),
      authority?.permission === 'client',
    );
    if (refusal !== undefined) throw refusal;
    return true;
  }
}

/**
 * The refusal of a request holding text the platform may not look up or store (libs/domain
 * `storable-text.ts`): path and query parameters, JSON and form bodies, Basic credentials, in
 * the error its routes' filters map: RFC 6749 invalid_request on the OAuth routes and every route
 * a client authenticates to, SCIM invalidValue, else a 400 (problem+json, a browser page).
 * Other headers cannot carry a NUL: Node's parser refuses the request first.
 */
export function unstorableTextRefusal(
  request: FastifyRequest,
  clientAuthenticated = false,
): Error | undefined {
  const found =
    inRecord(request.params, 'path parameter') ??
    inRecord(request.query, 'query parameter') ??
    inBody(request) ??
    inBasicCredentials(headerValue(request.headers.authorization));
  if (found === undefined) return undefined;
  const detail = `${found.where || 'the body'} ${found.fault}`;
  const path = requestPath(request);
  if (clientAuthenticated || isOAuthRoute(path)) return new OAuthError('invalid_request', detail);
  if (isScimRoute(path)) return scimErrors.invalidValue(detail);
  return validationFailed(detail);
}

function inRecord(record: unknown, kind: string): UnstorableText | undefined {
  return inEntries(Object.entries(record ?? {}), kind);
}

function inEntries(entries: Iterable<[string, unknown]>, kind: string): UnstorableText | undefined {
  for (const [name, value] of entries) {
    const found =
      findUnstorableText(name, `a ${kind} name`) ?? findUnstorableText(value, `${kind} ${name || '""'}`);
    if (found) return found;
  }
  return undefined;
}

function inBody(request: FastifyRequest): UnstorableText | undefined {
  const { body } = request;
  if (typeof body === 'string') {
    if (mediaType(request) !== 'application/x-www-form-urlencoded') return undefined;
    return inEntries(new URLSearchParams(body), 'form parameter');
  }
  const config = request.routeOptions.config as { opaqueBodyMembers?: string[] } | undefined;
  const opaque = config?.opaqueBodyMembers ?? [];
  return findUnstorableText(body, '', (member) => opaque.includes(member));
}

function inBasicCredentials(authorization: string | undefined): UnstorableText | undefined {
  let credentials: ReturnType<typeof basicCredentials>;
  try {
    credentials = basicCredentials(authorization);
  } catch {
    return undefined; // malformed: the route's own client authentication answers it
  }
  if (credentials === undefined) return undefined;
  return (
    findUnstorableText(credentials.clientId, 'the Basic client id') ??
    findUnstorableText(credentials.clientSecret, 'the Basic client secret')
  );
}
