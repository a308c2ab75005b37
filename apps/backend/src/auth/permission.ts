import {
  type ArgumentsHost,
  applyDecorators,
  type CanActivate,
  Catch,
  type ExceptionFilter,
  type ExecutionContext,
  Injectable,
  SetMetadata,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DeclaresAuthority, type TenantSource } from '@platform/contract';
import { headerValue, readAccessToken, toErrorResponse } from '@platform/http';
import { encodePrincipal, PRINCIPAL_HEADER, TENANT_HEADER } from '@platform/internal';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SidecarClient } from '../clients/sidecar.client';
import type { AuthenticatedRequest } from './bearer.guard';
import { asDpopChallenge, DpopResourceCheck } from './dpop-resource-check';
import { PermissionDeniedError } from './permission-denied.error';

export { PermissionDeniedError } from './permission-denied.error';

export interface PermissionOptions {
  /** The route parameter holding the tenant the resource belongs to; none for platform-wide routes. */
  tenantParam?: string;
  /**
   * The route names no tenant: it acts in the caller's, the `X-Platform-Tenant` header's when
   * sent (SCIM). Read from the token unverified only to choose what to ask: the sidecar verifies
   * the token and refuses a tenant the caller may not reach.
   */
  callerTenant?: boolean;
  /**
   * The body's field of this name names the tenant; when it names none, the caller's own (the
   * token's `tenant` claim, read as `callerTenant` does), else platform-wide (a worker's claim).
   */
  tenantBody?: string;
}

export interface RequiredPermission extends PermissionOptions {
  /** Scope-shaped action, e.g. `users.read`. */
  action: string;
}

/** The decision that let the request through, beside its claims. */
export interface Permission {
  action: string;
  /** '' for a platform-wide resource. */
  tenant: string;
  decisionId: string;
  decidedBy: string[];
}

export type AuthorizedRequest = AuthenticatedRequest & { permission?: Permission };

export const REQUIRED_PERMISSION = 'platform:required-permission';

/**
 * Answers the 403 of a refused action as the global filter would (problem+json, RFC 6750
 * challenge with `error="insufficient_scope"`), plus the extension members `decision_id` and
 * `decided_by`.
 */
@Catch(PermissionDeniedError)
export class PermissionDeniedFilter implements ExceptionFilter<PermissionDeniedError> {
  catch(exception: PermissionDeniedError, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    if (reply.sent) return;
    const response = toErrorResponse(exception, http.getRequest<FastifyRequest>());
    const body = { ...response.body, decision_id: exception.decisionId, decided_by: exception.decidedBy };
    void reply.status(response.status).headers(response.headers).send(JSON.stringify(body));
  }
}

/**
 * Asks the local sidecar's `Authorize` whether the Bearer token may do the route's action, once
 * per request, and attaches the claims (`@Claims()`) and the decision to the request. Missing
 * token: 401 bare challenge; invalid token: 401 `invalid_token`; refused: 403
 * `insufficient_scope` with `decision_id` and `decided_by`; sidecar down or any other failure:
 * 503 (fail closed).
 */
@Injectable()
export class PermissionGuard implements CanActivate {
  constructor(
    private readonly sidecar: SidecarClient,
    private readonly reflector: Reflector,
    private readonly dpop: DpopResourceCheck,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const required = this.reflector.getAllAndOverride<RequiredPermission | undefined>(REQUIRED_PERMISSION, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (required === undefined) throw new Error('PermissionGuard used without @RequirePermission()');
    const request = context.switchToHttp().getRequest<AuthorizedRequest>();
    const presented = readAccessToken(request.headers.authorization);
    const token = presented.token;
    // DPoP (RFC 9449): the sidecar checks the binding and the proof; so does this process, whose
    // replay cache the BearerGuard's routes share (docs/tokens.md, "DPoP").
    const dpop = presented.dpop ? this.dpop.presentationOf(request) : undefined;
    const tenant =
      required.tenantParam !== undefined
        ? tenantOf(request, required.tenantParam)
        : required.tenantBody !== undefined
          ? bodyTenantOf(request, required.tenantBody) || tokenTenantOf(token)
          : required.callerTenant === true
            ? callerTenantOf(request, token)
            : '';
    const { claims, decisionId, decidedBy } =
      dpop === undefined
        ? await this.sidecar.authorize(token, required.action, tenant)
        : await this.sidecar.authorize(token, required.action, tenant, dpop).catch((error: unknown) => {
            throw asDpopChallenge(error);
          });
    if (dpop !== undefined) this.dpop.check(token, claims, dpop);
    request.claims = claims;
    request.permission = { action: required.action, tenant, decisionId, decidedBy };
    return true;
  }
}

/**
 * The route needs the caller to be allowed `action` (by the sidecar's Authorize: token scope,
 * then role policies for users), on the tenant named by the route parameter `tenantParam`.
 * Also the route's declaration (`x-authority`, @platform/contract).
 */
export function RequirePermission(action: string, options: PermissionOptions = {}) {
  const required: RequiredPermission = { action, ...options };
  return applyDecorators(
    SetMetadata(REQUIRED_PERMISSION, required),
    UseGuards(PermissionGuard),
    UseFilters(PermissionDeniedFilter),
    DeclaresAuthority({ permission: action, tenant: tenantSourceOf(options) }),
  );
}

/** The options' tenant, as the declaration names its source. */
function tenantSourceOf({ tenantParam, tenantBody, callerTenant }: PermissionOptions): TenantSource {
  if (tenantParam !== undefined) return `path:${tenantParam}`;
  if (tenantBody !== undefined) return `body-or-token:${tenantBody}`;
  return callerTenant === true ? 'header-or-token' : 'none';
}

/** `x-platform-principal` of the caller the permission guard let through (libs/internal). */
export function principalHeader(request: AuthorizedRequest): string {
  if (request.claims === undefined) throw new Error('tenant routes need @RequirePermission');
  return encodePrincipal(request.claims);
}

/** The control plane learns the caller from the principal header, not from the token. */
export const asPrincipal = {
  forwardAuthorization: false,
  upstreamHeaders: (request: AuthorizedRequest) => ({ [PRINCIPAL_HEADER]: principalHeader(request) }),
} as const;

/** The `X-Platform-Tenant` header, else the token's own `tenant` claim, else none (''). */
function callerTenantOf(request: FastifyRequest, token: string): string {
  const named = headerValue(request.headers[TENANT_HEADER]);
  if (named !== undefined && named !== '') return named;
  return tokenTenantOf(token);
}

/** A string field of the JSON body; '' when absent (the control plane validates the body). */
function bodyTenantOf(request: FastifyRequest, field: string): string {
  const value = (request.body as Record<string, unknown> | null | undefined)?.[field];
  return typeof value === 'string' ? value : '';
}

/** The token's own `tenant` claim, unverified (the sidecar verifies the token); none: ''. */
function tokenTenantOf(token: string): string {
  try {
    const claims: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    const tenant = (claims as { tenant?: unknown } | null)?.tenant;
    return typeof tenant === 'string' ? tenant : '';
  } catch {
    return '';
  }
}

/** A route declaring `tenantParam` must have it: a missing one is a programming error (500). */
function tenantOf(request: FastifyRequest, name: string): string {
  const value = (request.params as Record<string, unknown> | undefined)?.[name];
  if (typeof value !== 'string' || value === '') {
    throw new Error(`route parameter ${name} (tenantParam of @RequirePermission) is missing`);
  }
  return value;
}
