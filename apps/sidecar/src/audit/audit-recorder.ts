import { Injectable } from '@nestjs/common';
import type { AuditRecordDto, AuditRecordPageDto } from '@platform/contract';
import type { TokenClaims } from '@platform/grpc';
import { callForCaller, tenantPath } from '../control-plane/caller-call';
import { ControlPlaneApi } from '../control-plane/control-plane-api';

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
 * (a rate limit reset). The control plane's refusals come back in gRPC terms (callForCaller).
 */
@Injectable()
export class AuditRecorder {
  constructor(private readonly controlPlane: ControlPlaneApi) {}

  /** Appends a record to the tenant's log (`''`: the platform-wide log). */
  async record(claims: TokenClaims, tenant: string, body: AuditBody): Promise<AuditRecordDto> {
    const path = tenant === '' ? '/internal/v1/audit/records' : `${tenantPath(tenant)}/audit/records`;
    return (await callForCaller(this.controlPlane, claims, 'POST', path, body)) as AuditRecordDto;
  }

  /** One page of the tenant's records (`query`: the route's filters). */
  async page(claims: TokenClaims, tenant: string, query: URLSearchParams): Promise<AuditRecordPageDto> {
    const path = `${tenantPath(tenant)}/audit/records${query.size > 0 ? `?${query}` : ''}`;
    return (await callForCaller(this.controlPlane, claims, 'GET', path)) as AuditRecordPageDto;
  }
}
