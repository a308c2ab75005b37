import { applyDecorators, SetMetadata } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants';
import { ApiExtension } from '@nestjs/swagger';
import { PLATFORM_ADMIN } from '@platform/domain';

/**
 * Who may call a route, declared once on it (docs/authorization.md, "Routes"): the decorator that
 * enforces it also records it, as Nest metadata (the start-up check, `RouteAuthorityCheck`) and
 * as the operation's `x-authority` in the OpenAPI document (the isolation matrix reads it there).
 */
export interface RouteAuthority {
  permission: RoutePermission;
  tenant: TenantSource;
}

/**
 * - a scope-shaped action (`jobs.read`): decided per request by the policy engine (the sidecar's
 *   Authorize), on the tenant of `tenant`;
 * - `admin.*` (PLATFORM_ADMIN): the unbound admin app or a `global_admin` user;
 * - `token`: any valid access token;
 * - `openid`: a valid access token issued with the `openid` scope (OpenID Connect UserInfo);
 * - `own-token`: the Bearer token the route acts on, valid or not (revoking it);
 * - `client`: OAuth client authentication (Basic or the form's credentials);
 * - `session`: the browser session cookie (none: the login page);
 * - `internal`: our own processes, with the internal token;
 * - `none`: no credential.
 */
export type RoutePermission =
  typeof PLATFORM_ADMIN | 'token' | 'openid' | 'own-token' | 'client' | 'session' | 'internal' | 'none' | (string & {});

/**
 * Where the tenant of the resource comes from: a path parameter (`path:tenant`), the
 * `X-Platform-Tenant` header else the token's own tenant (`header-or-token`), a body field else the
 * token's own tenant (`body-or-token:tenant`), or nowhere: platform-wide or no tenant (`none`).
 * Without a tenant from either, the resource is platform-wide.
 */
export type TenantSource = `path:${string}` | 'header-or-token' | `body-or-token:${string}` | 'none';

/** The OpenAPI extension carrying an operation's `RouteAuthority`. */
export const AUTHORITY_EXTENSION = 'x-authority';

/** The Nest metadata key carrying a handler's (or its controller's) `RouteAuthority`. */
export const ROUTE_AUTHORITY = 'platform:route-authority';

export const NO_CREDENTIAL: RouteAuthority = { permission: 'none', tenant: 'none' };
export const CLIENT_AUTHENTICATION: RouteAuthority = { permission: 'client', tenant: 'none' };
export const BROWSER_SESSION: RouteAuthority = { permission: 'session', tenant: 'none' };
export const INTERNAL_CALLER: RouteAuthority = { permission: 'internal', tenant: 'none' };
export const PRESENTED_TOKEN: RouteAuthority = { permission: 'own-token', tenant: 'none' };

/** The tenant source of a route whose path parameter `param` names the tenant, else none. */
export const tenantFromPath = (param?: string): TenantSource =>
  param === undefined ? 'none' : `path:${param}`;

/**
 * Records `authority` on a handler, or on every handler of a controller. A handler declared twice
 * (on itself and on its controller, or by two decorators) is a programming error, thrown when
 * the module loads: one route, one declaration.
 */
export function DeclaresAuthority(authority: RouteAuthority): ClassDecorator & MethodDecorator {
  const record = applyDecorators(
    SetMetadata(ROUTE_AUTHORITY, authority),
    ApiExtension(AUTHORITY_EXTENSION, authority),
  );
  return ((target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    const handlers =
      descriptor !== undefined
        ? [descriptor.value as object]
        : routeHandlersOf(target as new (...args: never[]) => unknown).map(([, handler]) => handler);
    for (const handler of [...handlers, ...(descriptor === undefined ? [target] : [])]) {
      const declared = Reflect.getMetadata(ROUTE_AUTHORITY, handler) as RouteAuthority | undefined;
      if (declared !== undefined) {
        const name = descriptor === undefined ? (target as { name: string }).name : String(key);
        throw new Error(
          `${name}: authority declared twice (${JSON.stringify(declared)} and ${JSON.stringify(authority)})`,
        );
      }
    }
    return descriptor === undefined ? record(target as never) : record(target, key!, descriptor);
  }) as ClassDecorator & MethodDecorator;
}

/** Every route handler of a controller class, by method name: its methods carrying `@Get`, `@Post`... */
export function routeHandlersOf(controller: new (...args: never[]) => unknown): Array<[string, object]> {
  return Object.getOwnPropertyNames(controller.prototype)
    .filter((name) => name !== 'constructor')
    .map((name) => [name, Object.getOwnPropertyDescriptor(controller.prototype, name)?.value] as const)
    .filter((entry): entry is [string, object] => typeof entry[1] === 'function')
    .filter(([, handler]) => Reflect.hasMetadata(METHOD_METADATA, handler));
}
