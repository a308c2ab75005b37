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
import { TimestampProperty } from './fields';
import { CursorPageQueryDto } from './paging';

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
  @ApiProperty({
    type: () => AuditChainBreakDto,
    nullable: true,
    description: 'The first record that does not verify.',
  })
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
