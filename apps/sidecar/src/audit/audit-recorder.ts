import { Injectable } from '@nestjs/common';
import type { AuditRecordDto, AuditRecordPageDto } from '@platform/contract';
import type { TokenClaims } from '@platform/grpc';
import { encodePrincipal } from '@platform/internal';
import { AuthorizationError, invalidArgument } from '../authorization/authorization.error';
import { ControlPlaneApi } from '../control-plane/control-plane-api';
import { SidecarError } from '../errors';

/** What an audit record says (the control plane adds who, when and the chain). */
export interface AuditBody {
  action: string;
  target?: string;
  outcome?: string;
  occurred_at?: string;
  attributes?: unknown;
}

/**
 * The control plane's audit log as the sidecar writes and reads it, for a caller it has already
 * authorized (named as the principal): the AuditService's records and the sidecar services' own
 * (a rate limit reset). The control plane's refusals come back in gRPC terms.
 */
@Injectable()
export class AuditRecorder {
  constructor(private readonly controlPlane: ControlPlaneApi) {}

  /** Appends a record to the tenant's log (`''`: the platform-wide log). */
  async record(claims: TokenClaims, tenant: string, body: AuditBody): Promise<AuditRecordDto> {
    const path = tenant === '' ? '/internal/v1/audit/records' : `${tenantPath(tenant)}/audit/records`;
    return (await this.call('POST', path, encodePrincipal(claims), body)) as AuditRecordDto;
  }

  /** One page of the tenant's records (`query`: the route's filters). */
  async page(claims: TokenClaims, tenant: string, query: URLSearchParams): Promise<AuditRecordPageDto> {
    const path = `${tenantPath(tenant)}/audit/records${query.size > 0 ? `?${query}` : ''}`;
    return (await this.call('GET', path, encodePrincipal(claims))) as AuditRecordPageDto;
  }

  /** The control plane's refusals in gRPC terms: its 400 is the caller's INVALID_ARGUMENT. */
  private async call(
    method: 'GET' | 'POST',
    path: string,
    principal: string,
    payload?: unknown,
  ): Promise<unknown> {
    const { status, body } = await this.controlPlane.callAsPrincipal(method, path, principal, payload);
    if (status >= 200 && status < 300) return body;
    const detail = (body as { detail?: unknown } | null)?.detail;
    const message = typeof detail === 'string' ? detail : `the control plane answered ${status}`;
    if (status === 400) throw invalidArgument(message);
    if (status === 403) throw new AuthorizationError('permission_denied', message);
    throw new SidecarError(
      'control_plane_rejected',
      `control plane answered ${status} on ${path.split('?')[0]}`,
    );
  }
}

const tenantPath = (tenant: string) => `/internal/v1/tenants/${encodeURIComponent(tenant)}`;
