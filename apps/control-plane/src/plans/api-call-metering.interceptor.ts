import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Operation } from '@platform/contract';
import { PLATFORM_METERS } from '@platform/domain';
import { PRINCIPAL_HEADER } from '@platform/internal';
import type { FastifyRequest } from 'fastify';
import { from, type Observable, switchMap } from 'rxjs';
import { IMPLEMENTED_OPERATIONS } from '../platform/implements';
import { readPrincipal } from '../tenants/principal';
import { PlatformMetering } from './platform-metering';

/**
 * The `api_calls` meter (docs/plans.md): each call of a tenant's API operation (a permission route
 * the edge authorized) takes a unit of the tenant's quota before the handler runs; a hard quota
 * used up refuses with 429 and Retry-After. The tenant is where the operation's entry says it
 * comes from: a path parameter, a body member or the caller's own.
 */
@Injectable()
export class ApiCallMetering implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly metering: PlatformMetering,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const tenant = this.tenantOf(context);
    if (tenant === undefined) return next.handle();
    return from(this.metering.take(tenant, PLATFORM_METERS.apiCalls)).pipe(switchMap(() => next.handle()));
  }

  private tenantOf(context: ExecutionContext): string | undefined {
    const [entry] =
      this.reflector.get<Operation[] | undefined>(IMPLEMENTED_OPERATIONS, context.getHandler()) ?? [];
    if (entry?.caller.kind !== 'permission') return undefined;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const { tenantParam, tenantBody, callerTenant } = entry.caller;
    const named =
      tenantParam !== undefined
        ? (request.params as Record<string, unknown>)[tenantParam]
        : tenantBody !== undefined
          ? (request.body as Record<string, unknown> | undefined)?.[tenantBody]
          : callerTenant === true
            ? readPrincipal(request.headers[PRINCIPAL_HEADER]).tenant
            : undefined;
    return typeof named === 'string' && named !== '' ? named : undefined;
  }
}
