import { ApiProperty, ApiPropertyOptional, ApiSchema, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  AUDIT_ACTION_PATTERN,
  AUDIT_ACTOR_KINDS,
  AUDIT_OUTCOMES,
  MAX_AUDIT_ATTRIBUTES,
  type AuditActorKind,
  type AuditAttributes,
  type AuditOutcome,
} from '@platform/domain';
import { Type } from 'class-transformer';
import {
  IsDateString,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { NullableModelProperty, TimestampProperty } from './fields';
import { operation } from './operation-table';
import { CursorPageQueryDto, LIVE_STREAM_END } from './paging';

const ACTION = {
  pattern: AUDIT_ACTION_PATTERN.source,
  maxLength: 128,
  description: 'Dotted lower case, `resource.verb`.',
  example: 'invoice.paid',
};
const ATTRIBUTES = {
  type: 'object',
  additionalProperties: {
    oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
    nullable: true,
  },
  maxProperties: MAX_AUDIT_ATTRIBUTES,
  description:
    'Flat context: string, number, boolean or null values, at most 50 keys and 8 KiB of JSON. Hashed in RFC 8785 form.',
  example: { amount: 12.5, currency: 'EUR' },
} as ApiPropertyOptions;

/** The domain checks the action, target and attribute values (one home); this checks the shape. */
@ApiSchema({
  name: 'AuditEventEmission',
  description:
    'An audit record to append. The actor is the caller (from its token); the tenant is the path’s.',
})
export class EmitAuditEventDto {
  @ApiProperty(ACTION)
  @IsString()
  @Matches(AUDIT_ACTION_PATTERN)
  @MaxLength(128)
  action: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 256, description: 'What the action touched.' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  target?: string;

  @ApiPropertyOptional({ enum: AUDIT_OUTCOMES, default: 'success' })
  @IsOptional()
  @IsIn(AUDIT_OUTCOMES)
  outcome?: AuditOutcome;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'When it happened, if not now (the record is still appended now, at the end of the chain).',
  })
  @IsOptional()
  @IsDateString({ strict: true })
  occurred_at?: string;

  @ApiPropertyOptional(ATTRIBUTES)
  @IsOptional()
  @IsObject()
  attributes?: AuditAttributes;
}

@ApiSchema({ name: 'AuditActor' })
export class AuditActorDto {
  @ApiProperty({ enum: AUDIT_ACTOR_KINDS }) kind: AuditActorKind;
  @ApiProperty({ description: 'The user id, the client_id, or `platform`.' }) id: string;
}

@ApiSchema({
  name: 'AuditRecord',
  description:
    'One link of the hash chain: `record_hash` = hex SHA-256 of `previous_hash` followed by the RFC 8785 JSON of the record without its two hashes (docs/audit.md).',
})
export class AuditRecordDto {
  @ApiProperty({ type: 'integer', description: '1, 2, 3... without gaps.' }) sequence_id: number;
  @ApiProperty({ description: '64 hex; 64 zeros for record 1.' }) previous_hash: string;
  @ApiProperty({ description: '64 hex.' }) record_hash: string;
  @ApiProperty({ type: 'string', nullable: true }) tenant: string | null;
  @ApiProperty({ type: () => AuditActorDto }) actor: AuditActorDto;
  @ApiProperty(ACTION) action: string;
  @ApiProperty({ type: 'string', nullable: true }) target: string | null;
  @ApiProperty({ enum: AUDIT_OUTCOMES }) outcome: AuditOutcome;
  @TimestampProperty({ description: 'ISO 8601 UTC with milliseconds, as hashed.' }) occurred_at: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The x-request-id of the request that caused it.',
  })
  correlation_id: string | null;
  @ApiProperty(ATTRIBUTES) attributes: AuditAttributes;
}

@ApiSchema({
  name: 'AuditRecordPage',
  description: 'Oldest first. Pass `next_after` back as `after` to continue.',
})
export class AuditRecordPageDto {
  @ApiProperty({ type: () => AuditRecordDto, isArray: true }) records: AuditRecordDto[];
  @ApiProperty({
    type: 'integer',
    description:
      'The sequence id of the last record of the page (or the `after` given when the page is empty).',
  })
  next_after: number;
}

export class ListAuditRecordsQueryDto extends CursorPageQueryDto {
  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'Records that happened at or after.',
  })
  @IsOptional()
  @IsDateString({ strict: true })
  since?: string;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'Records that happened before.' })
  @IsOptional()
  @IsDateString({ strict: true })
  until?: string;

  @ApiPropertyOptional({ description: 'The actor id (user id, client_id or `platform`).' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  actor?: string;

  @ApiPropertyOptional({ description: 'Exact action.' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  action?: string;

  @ApiPropertyOptional({ description: 'Exact target.' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  target?: string;
}

/** The admin listing may also filter by tenant; a tenant's own listing takes it from the path. */
export class ListAllAuditRecordsQueryDto extends ListAuditRecordsQueryDto {
  @ApiPropertyOptional({ description: 'Only this tenant’s records.' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  tenant?: string;
}

export class VerifyAuditQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'First sequence id to check (default 1).',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  from?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'Last sequence id to check (default: the newest).',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  through?: number;
}

@ApiSchema({ name: 'AuditChainBreak' })
export class AuditChainBreakDto {
  @ApiProperty({ type: 'integer' }) sequence_id: number;
  @ApiProperty({ enum: ['sequence_gap', 'previous_hash_mismatch', 'record_hash_mismatch'] }) problem: string;
}

@ApiSchema({
  name: 'AuditVerification',
  description: 'The chain, whole or a range, checked link by link against the stored records.',
})
export class AuditVerificationDto {
  @ApiProperty() valid: boolean;
  @ApiProperty({ type: 'integer' }) checked: number;
  @ApiProperty({ type: 'integer' }) from: number;
  @ApiProperty({ type: 'integer' }) through: number;
  @NullableModelProperty(AuditChainBreakDto, { description: 'The first record that does not verify.' })
  first_invalid: AuditChainBreakDto | null;
}

@ApiSchema({
  name: 'AuditCheckpoint',
  description:
    'A signed tree head: the RFC 6962 Merkle tree hash over the `record_hash` bytes of records 1 to `tree_size`. `signed` is a JWS (RS256, `typ` `audit-checkpoint+jwt`) of `{iss, tree_size, root_hash, iat}`, verifiable with `/v1/jwks`.',
})
export class AuditCheckpointDto {
  @ApiProperty({ type: 'integer' }) tree_size: number;
  @ApiProperty({ description: '64 hex.' }) root_hash: string;
  @TimestampProperty() created_at: string;
  @ApiProperty({ description: 'Compact JWS of the tree head.' }) signed: string;
}

@ApiSchema({
  name: 'AuditInclusionProof',
  description:
    'RFC 6962 audit path from the record’s leaf (SHA-256 of 0x00 and its `record_hash` bytes) to the root of the latest checkpoint (RFC 9162 section 2.1.3.2 verifies it).',
})
export class AuditInclusionProofDto {
  @ApiProperty({ type: 'integer' }) sequence_id: number;
  @ApiProperty({ type: 'integer' }) tree_size: number;
  @ApiProperty({ type: 'integer', description: '`sequence_id` - 1.' }) leaf_index: number;
  @ApiProperty() leaf_hash: string;
  @ApiProperty({ type: 'string', isArray: true }) audit_path: string[];
  @ApiProperty() root_hash: string;
  @ApiProperty({ description: 'The signed checkpoint the path leads to.' }) checkpoint: string;
}

export class AuditConsistencyQueryDto {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'The tree size of the checkpoint the caller holds.',
  })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  from: number;
}

@ApiSchema({
  name: 'AuditConsistencyProof',
  description:
    'RFC 6962 consistency proof from the tree of the first `from` records to the latest checkpoint (`to` records); RFC 9162 section 2.1.4.2 verifies it against the two roots.',
})
export class AuditConsistencyProofDto {
  @ApiProperty({ type: 'integer' }) from: number;
  @ApiProperty({ type: 'integer' }) to: number;
  @ApiProperty({ type: 'string', isArray: true }) proof: string[];
  @ApiProperty({ description: 'The latest checkpoint’s root (64 hex).' }) root_hash: string;
  @ApiProperty({ description: 'The latest signed checkpoint.' }) checkpoint: string;
}

@ApiSchema({
  name: 'CrossTenantRefusal',
  description:
    'A cross-tenant refusal a sidecar decided, reported to the control plane to be audited (internal; the refused caller is the principal header).',
})
export class CrossTenantRefusalDto {
  @ApiProperty({ type: 'string', maxLength: 128, description: 'The refused action, e.g. `secrets.read`.' })
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  action: string;

  @ApiProperty({ type: 'string', maxLength: 64, description: 'The tenant the caller reached into.' })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  tenant: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 64, description: 'The id of the refusing decision.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  decision_id?: string;
}

/**
 * What became of a reported refusal: written (`recorded`), counted into a later record of its
 * window (`folded`), or counted only, with no room to track its window (`unrecorded`).
 */
export class CrossTenantRefusalOutcomeDto {
  @ApiProperty({ enum: ['recorded', 'folded', 'unrecorded'] }) outcome: string;
}

const TENANT = { tenant: { example: 'acme' } };
const TENANT_RECORDS = 'api/v1/tenants/:tenant/audit/records';
const INTERNAL_TENANT_RECORDS = 'internal/v1/tenants/:tenant/audit/records';
const BAD_RECORD =
  'A malformed record: an action that is not dotted lower case, a target over 256 characters, attributes that are not flat or over 50 keys or 8 KiB.';
const EMIT =
  'Appends one record to the hash-chained audit log and answers it with its `sequence_id`, `previous_hash` and `record_hash`. The actor is the caller: the user of a user token, else the application. Permission `audit.write`';
const NO_CHECKPOINT = 'No checkpoint yet.';

/**
 * Applications and users writing and reading the audit log (docs/audit.md): the edge asks the
 * policy engine, the control plane serves them as internal routes for the principal it names.
 */
export const AUDIT_RECORD_OPERATIONS = {
  emitPlatformWide: operation({
    id: 'emitPlatformAuditRecord',
    tag: 'Audit',
    summary: 'Write a platform-wide audit record',
    description: `${EMIT} on no tenant: an application token with a scope covering it (user tokens write into their tenant, below).`,
    method: 'POST',
    path: 'api/v1/audit/records',
    internal: 'internal/v1/audit/records',
    caller: { kind: 'permission', action: 'audit.write' },
    body: { type: 'json', model: EmitAuditEventDto },
    answer: { status: 201, model: AuditRecordDto, description: 'Appended.' },
    refuses: { 400: BAD_RECORD },
  }),
  emit: operation({
    id: 'emitTenantAuditRecord',
    tag: 'Audit',
    summary: 'Write an audit record of a tenant',
    description: `${EMIT} on \`{tenant}\`: a user needs the scope and a role allowing it there (\`tenant_admin\` of the tenant, \`global_admin\`); an application, the scope.`,
    method: 'POST',
    path: TENANT_RECORDS,
    internal: INTERNAL_TENANT_RECORDS,
    caller: { kind: 'permission', action: 'audit.write', tenantParam: 'tenant' },
    params: TENANT,
    body: { type: 'json', model: EmitAuditEventDto },
    answer: { status: 201, model: AuditRecordDto, description: 'Appended.' },
    refuses: { 400: BAD_RECORD },
  }),
  list: operation({
    id: 'listTenantAuditRecords',
    tag: 'Audit',
    summary: 'The audit log of a tenant',
    description:
      'Permission `audit.read` on `{tenant}` (`tenant_admin` of the tenant, `global_admin`, or an application with the scope). Oldest first, cursor-paged; filters combine with AND.',
    method: 'GET',
    path: TENANT_RECORDS,
    internal: INTERNAL_TENANT_RECORDS,
    caller: { kind: 'permission', action: 'audit.read', tenantParam: 'tenant' },
    params: TENANT,
    query: ListAuditRecordsQueryDto,
    answer: { status: 200, model: AuditRecordPageDto, description: 'One page of records.' },
    refuses: {
      400: 'A malformed filter (a time that is not RFC 3339, a negative cursor, a limit outside 1-1000).',
    },
  }),
};

/** The whole audit log, for platform administrators (admin Bearer token, same paths). */
export const ADMIN_AUDIT_OPERATIONS = {
  listAll: operation({
    id: 'listAuditRecords',
    tag: 'Audit',
    summary: 'The audit log',
    description: `Every record of every tenant, oldest first, cursor-paged, filterable by tenant, actor, action, target and time; or live, with \`Accept: text/event-stream\`: Server-Sent Events (\`event: audit_record\`, \`id\` = the sequence id), every stored record from \`after\` and then each new one, resumed after \`Last-Event-ID\`. ${LIVE_STREAM_END} The platform audits itself here (docs/audit.md).`,
    method: 'GET',
    path: 'api/v1/audit/records',
    caller: { kind: 'admin' },
    query: ListAllAuditRecordsQueryDto,
    answer: { status: 200, model: AuditRecordPageDto, description: 'One page of records.' },
    refuses: { 400: 'A malformed filter.' },
    live: true,
  }),
  verify: operation({
    id: 'verifyAuditLog',
    tag: 'Audit',
    summary: 'Verify the audit chain',
    description:
      'Recomputes every record’s hash from its content and checks each link, whole or between `from` and `through`, and names the first record that does not verify (an edited, removed or re-hashed row). 200 either way: `valid` says which.',
    method: 'GET',
    path: 'api/v1/audit/verify',
    caller: { kind: 'admin' },
    query: VerifyAuditQueryDto,
    answer: { status: 200, model: AuditVerificationDto, description: 'The verdict.' },
    refuses: { 400: 'A malformed range.' },
  }),
  checkpoint: operation({
    id: 'createAuditCheckpoint',
    tag: 'Audit',
    summary: 'Checkpoint the audit log now',
    description:
      'Signs the tree head of the whole log as it is now, without waiting for the periodic one (the stored checkpoint when the log has not grown). No body.',
    method: 'POST',
    path: 'api/v1/audit/checkpoints',
    caller: { kind: 'admin' },
    answer: { status: 201, model: AuditCheckpointDto, description: 'The checkpoint.' },
    refuses: { 404: 'The log is empty.' },
  }),
  consistency: operation({
    id: 'getAuditConsistencyProof',
    tag: 'Audit',
    summary: 'Prove the log only grew since a checkpoint',
    description:
      'The RFC 6962 consistency proof from the tree of the first `from` records (a checkpoint the caller kept) to the latest checkpoint.',
    method: 'GET',
    path: 'api/v1/audit/consistency',
    caller: { kind: 'admin' },
    query: AuditConsistencyQueryDto,
    answer: { status: 200, model: AuditConsistencyProofDto, description: 'The proof.' },
    refuses: {
      400: '`from` is missing, not an integer, or beyond the latest checkpoint.',
      409: NO_CHECKPOINT,
    },
  }),
  inclusion: operation({
    id: 'getAuditInclusionProof',
    tag: 'Audit',
    summary: 'Prove a record is in the latest checkpoint',
    description: 'The RFC 6962 audit path of the record to the root of the latest signed checkpoint.',
    method: 'GET',
    path: 'api/v1/audit/records/:sequence_id/inclusion',
    caller: { kind: 'admin' },
    params: { sequence_id: { example: 42 } },
    answer: { status: 200, model: AuditInclusionProofDto, description: 'The proof.' },
    refuses: {
      400: 'The sequence id is not an integer.',
      404: 'No such record in the latest checkpoint.',
      409: NO_CHECKPOINT,
    },
  }),
};

/** The published checkpoint: no credential, so anyone can hold the log to it. */
export const AUDIT_CHECKPOINT_OPERATIONS = {
  latest: operation({
    id: 'getAuditCheckpoint',
    tag: 'Audit',
    summary: 'The latest signed checkpoint of the audit log',
    description:
      'The RFC 6962 tree head over every record up to `tree_size`, signed with the platform key (verify `signed` with `/v1/jwks`). Made every minute when the log has grown. With a record and an inclusion proof, an outside party checks the record is in the log without reading the rest.',
    method: 'GET',
    path: 'v1/audit/checkpoint',
    internal: 'api/v1/audit/checkpoint',
    caller: { kind: 'public' },
    answer: { status: 200, model: AuditCheckpointDto, description: 'The checkpoint.' },
    refuses: { 404: 'No checkpoint yet (an empty log, or none made since the first record).' },
  }),
};

/**
 * Cross-tenant refusals a sidecar decided, reported to be audited into the log of the tenant
 * reached into (docs/authorization.md, "Refusals are audited"); the refused caller is the
 * principal header.
 */
export const CROSS_TENANT_REFUSAL_OPERATIONS = {
  refused: operation({
    id: 'reportCrossTenantRefusal',
    tag: 'Internal',
    summary: 'Audit a cross-tenant refusal',
    method: 'POST',
    path: 'internal/v1/authorization/refusals',
    caller: { kind: 'internal' },
    body: { type: 'json', model: CrossTenantRefusalDto },
    answer: { status: 200, model: CrossTenantRefusalOutcomeDto, description: 'What became of it.' },
  }),
};
