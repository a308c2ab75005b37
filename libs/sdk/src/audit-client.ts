import type { PlatformClient } from './platform-client';
import type {
  AuditCheckpoint,
  AuditEmission,
  AuditInclusionProof,
  AuditRecord,
  AuditRecordPage,
  AuditVerification,
} from './wire';

export interface AuditQuery {
  after?: number;
  limit?: number;
  /** RFC 3339 bounds: `since` inclusive, `until` exclusive. */
  since?: string;
  until?: string;
  actor?: string;
  action?: string;
  target?: string;
}

/**
 * The audit log (docs/audit.md): writing records (`audit.write`), reading a tenant's
 * (`audit.read`), and, with an admin token, reading all, verifying the chain and proving a
 * record is in the published checkpoint.
 */
export class AuditClient {
  constructor(readonly client: PlatformClient) {}

  /** Appends a record to `tenant`'s log, or a platform-wide one when `tenant` is null. */
  emit(tenant: string | null, record: AuditEmission): Promise<AuditRecord> {
    const path = tenant === null ? '/api/v1/audit/records' : `${tenantPath(tenant)}/audit/records`;
    return this.client.json<AuditRecord>(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(record),
    });
  }

  /** One page of a tenant's records. */
  listTenantRecords(tenant: string, query: AuditQuery = {}): Promise<AuditRecordPage> {
    return this.client.json<AuditRecordPage>(`${tenantPath(tenant)}/audit/records${search(query)}`);
  }

  /** One page of every tenant's records (admin). */
  listRecords(query: AuditQuery & { tenant?: string } = {}): Promise<AuditRecordPage> {
    return this.client.json<AuditRecordPage>(`/api/v1/audit/records${search(query)}`);
  }

  /** Verifies the chain, whole or from `from` through `through` (admin). */
  verify(range: { from?: number; through?: number } = {}): Promise<AuditVerification> {
    return this.client.json<AuditVerification>(`/api/v1/audit/verify${search(range)}`);
  }

  /** Checkpoints the log now, without waiting for the periodic one (admin). */
  checkpoint(): Promise<AuditCheckpoint> {
    return this.client.json<AuditCheckpoint>('/api/v1/audit/checkpoints', { method: 'POST' });
  }

  /** The latest published checkpoint (no credential needed, but sent anyway). */
  latestCheckpoint(): Promise<AuditCheckpoint> {
    return this.client.json<AuditCheckpoint>('/v1/audit/checkpoint');
  }

  /** The audit path of a record to the latest checkpoint (admin). */
  inclusionProof(sequenceId: number): Promise<AuditInclusionProof> {
    return this.client.json<AuditInclusionProof>(`/api/v1/audit/records/${sequenceId}/inclusion`);
  }
}

const tenantPath = (tenant: string) => `/api/v1/tenants/${encodeURIComponent(tenant)}`;

function search(query: object): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query) as Array<[string, unknown]>) {
    if (value !== undefined) params.set(name, String(value));
  }
  return params.size > 0 ? `?${params}` : '';
}
