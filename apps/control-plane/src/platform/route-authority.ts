import { applyDecorators, UseGuards } from '@nestjs/common';
import { DeclaresAuthority, INTERNAL_CALLER, NO_CREDENTIAL, tenantFromPath } from '@platform/contract';
import { PLATFORM_ADMIN } from '@platform/domain';
import { AdminApiGuard } from './admin-api.guard';
import { InternalGuard } from './internal.guard';

/**
 * The three kinds of control-plane route, each one decorator that applies its guard and declares
 * it (RouteAuthorityModule refuses to start with a route that declares nothing):
 * - `/api/v1/*` administration: an admin token, checked again here (AdminApiGuard);
 * - `/internal/v1/*`: our own processes, with the internal token (InternalGuard); a route acting
 *   for a caller reads the principal the backend authorized from `x-platform-principal`;
 * - public: the key set, health, the audit checkpoint and the metrics.
 * `tenantParam`: the path parameter naming the tenant, recorded in the declaration.
 */
export const AdminRoute = ({ tenantParam }: { tenantParam?: string } = {}) =>
  applyDecorators(
    UseGuards(AdminApiGuard),
    DeclaresAuthority({ permission: PLATFORM_ADMIN, tenant: tenantFromPath(tenantParam) }),
  );

export const InternalRoute = ({ tenantParam }: { tenantParam?: string } = {}) =>
  applyDecorators(
    UseGuards(InternalGuard),
    DeclaresAuthority({ ...INTERNAL_CALLER, tenant: tenantFromPath(tenantParam) }),
  );

export const PublicRoute = () => DeclaresAuthority(NO_CREDENTIAL);
