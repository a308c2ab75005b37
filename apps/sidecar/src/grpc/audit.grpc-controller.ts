import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import type { AuditRecordDto } from '@platform/contract';
import type {
  AuditRecordMessage,
  EmitAuditEventRequest,
  QueryAuditRequest,
  QueryAuditResponse,
} from '@platform/grpc';
import { invalidArgument } from '../authorization/authorization.error';
import { TokenAuthorizer } from '../authorization/token-authorizer';
import { AuditRecorder } from '../audit/audit-recorder';

/**
 * `platform.audit.v1.AuditService`: the audit log for the services beside this sidecar. The
 * caller's token is checked here (audit.write to emit, audit.read to query, in the tenant the
 * request names, else the caller's own; RPC_AUTHORITY); the control plane owns the log and is
 * called with the caller as principal (AuditRecorder).
 */
@Controller()
export class AuditGrpcController {
  constructor(
    private readonly authorizer: TokenAuthorizer,
    private readonly audit: AuditRecorder,
  ) {}

  @GrpcMethod('AuditService', 'EmitAuditEvent')
  async emitAuditEvent(request: Partial<EmitAuditEventRequest>): Promise<AuditRecordMessage> {
    const body = {
      action: request.action ?? '',
      target: request.target || undefined,
      outcome: request.outcome || undefined,
      occurred_at: request.occurred_at || undefined,
      attributes: attributesOf(request.attributes_json ?? ''),
    };
    const { claims, tenant } = await this.authorizer.authorizeRpc('AuditService/EmitAuditEvent', {
      token: request.token,
      tenant: request.tenant,
    });
    return toAuditRecordMessage(await this.audit.record(claims, tenant, body));
  }

  @GrpcMethod('AuditService', 'QueryAudit')
  async queryAudit(request: Partial<QueryAuditRequest>): Promise<QueryAuditResponse> {
    const { claims, tenant } = await this.authorizer.authorizeRpc('AuditService/QueryAudit', {
      token: request.token,
      tenant: request.tenant,
    });
    const query = new URLSearchParams();
    const filters = {
      after: request.after ? String(request.after) : '',
      limit: request.limit ? String(request.limit) : '',
      since: request.since ?? '',
      until: request.until ?? '',
      actor: request.actor ?? '',
      action: request.action ?? '',
      target: request.target ?? '',
    };
    for (const [name, value] of Object.entries(filters)) if (value !== '') query.set(name, value);
    const page = await this.audit.page(claims, tenant, query);
    return { records: page.records.map(toAuditRecordMessage), next_after: page.next_after };
  }
}

function attributesOf(json: string): unknown {
  if (json === '') return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    throw invalidArgument('attributes_json is not JSON');
  }
}

function toAuditRecordMessage(record: AuditRecordDto): AuditRecordMessage {
  return {
    sequence_id: record.sequence_id,
    previous_hash: record.previous_hash,
    record_hash: record.record_hash,
    tenant: record.tenant ?? '',
    actor: record.actor,
    action: record.action,
    target: record.target ?? '',
    outcome: record.outcome,
    occurred_at: record.occurred_at,
    correlation_id: record.correlation_id ?? '',
    attributes_json: JSON.stringify(record.attributes),
  };
}
