import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Min } from 'class-validator';
import { TimestampProperty } from './fields';
import { operation } from './operation-table';
import { PageQueryDto } from './paging';

const NAME = { description: 'The secret’s name: 1 to 128 of A-Z a-z 0-9 . _ -', example: 'db-password' };
const VERSION = {
  type: 'integer',
  minimum: 1,
  description: '1 for the first write, one more for each.',
  example: 3,
} as const;

@ApiSchema({ name: 'SecretWrite', description: 'A new version of a secret.' })
export class SecretWriteDto {
  @ApiProperty({
    description: 'The value, at most 32 KiB of UTF-8. Never logged, audited or echoed.',
    example: 's3cr3t',
  })
  @IsString()
  value: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description:
      'Check-and-set: write only if the current version is this one (0: only if the secret does not exist yet); otherwise **409**.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  cas?: number;
}

@ApiSchema({ name: 'SecretVersion', description: 'A version as written (no value).' })
export class SecretVersionDto {
  @ApiProperty(NAME)
  name: string;

  @ApiProperty(VERSION)
  version: number;

  @TimestampProperty()
  created_at: string;
}

@ApiSchema({ name: 'SecretValue', description: 'One version of a secret with its value.' })
export class SecretValueDto extends SecretVersionDto {
  @ApiProperty({ description: 'The value.', example: 's3cr3t' })
  value: string;
}

@ApiSchema({ name: 'SecretVersionState', description: 'One version of a secret, without its value.' })
export class SecretVersionStateDto {
  @ApiProperty(VERSION)
  version: number;

  @TimestampProperty()
  created_at: string;

  @TimestampProperty({
    nullable: true,
    description: 'When it was soft-deleted (undelete brings it back); null: live.',
  })
  deleted_at: string | null;

  @ApiProperty({ description: 'Destroyed: the value is gone for good.' })
  destroyed: boolean;
}

@ApiSchema({ name: 'SecretMetadata', description: 'A secret and its versions, without values.' })
export class SecretMetadataDto {
  @ApiProperty(NAME)
  name: string;

  @ApiProperty({ ...VERSION, description: 'The highest version (what a read without `version` answers).' })
  current_version: number;

  @TimestampProperty()
  created_at: string;

  @TimestampProperty({ description: 'When the current version was written.' })
  updated_at: string;

  @ApiProperty({ type: [SecretVersionStateDto], description: 'Oldest first.' })
  versions: SecretVersionStateDto[];
}

@ApiSchema({ name: 'SecretNamesPage', description: 'The names of a tenant’s secrets, one page.' })
export class SecretNamesPageDto {
  @ApiProperty({ type: [String], example: ['api-key', 'db-password'] })
  names: string[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Pass as `after` for the next page; null on the last.',
  })
  next_after: string | null;
}

export class ListSecretsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Cursor: the `next_after` of the previous page.' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{1,128}$/)
  after?: string;
}

export class ReadSecretQueryDto {
  @ApiPropertyOptional({ ...VERSION, description: 'Which version (default: the current one).' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  version?: number;
}

@ApiSchema({ name: 'SecretsRewrap', description: 'The outcome of a rewrap after a KEK rotation.' })
export class SecretsRewrapDto {
  @ApiProperty({
    type: 'integer',
    description: 'Secret versions whose data key this call moved under the current KEK.',
  })
  rewrapped: number;

  @ApiProperty({
    type: 'integer',
    description: 'The platform’s signing keys this call moved under the current KEK.',
  })
  signing_keys: number;

  @ApiProperty({
    type: 'integer',
    description:
      'Webhook endpoints whose signing secrets this call moved under the current KEK (or sealed, when an earlier release stored them in the clear).',
  })
  webhook_secrets: number;

  @ApiProperty({
    description: 'The current key-encryption key’s id (a digest of it).',
    example: 'kek-3f9a0c1d2e4b5a69',
  })
  kek_id: string;
}

const SECRETS_PATH = 'api/v1/tenants/:tenant/secrets';
const INTERNAL_PATH = 'internal/v1/tenants/:tenant/secrets';
const NO_SECRET = 'No such secret (or version) in the tenant.';
const READ =
  'Permission `secrets.read` on `{tenant}` (a user of the tenant, `global_admin`, or an application with the scope).';
const WRITE = 'Permission `secrets.write` on `{tenant}`. Audited.';
const READER = { kind: 'permission', action: 'secrets.read', tenantParam: 'tenant' } as const;
const WRITER = { kind: 'permission', action: 'secrets.write', tenantParam: 'tenant' } as const;
const TENANT = { tenant: { example: 'acme' } };
const SECRET = { ...TENANT, name: { example: 'db-password' } };
const SECRET_VERSION = { ...SECRET, version: { example: 2 } };

/**
 * A tenant's secrets (docs/secrets.md): Vault KV v2's model (versions, check-and-set, soft
 * delete, destroy), values sealed at rest by the control plane, every read audited. The control
 * plane serves them as internal routes for the principal the edge authorized, and checks the
 * caller's tenant again.
 */
export const SECRET_OPERATIONS = {
  list: operation({
    id: 'listSecrets',
    tag: 'Secrets',
    summary: 'The names of a tenant’s secrets',
    description: `${READ} Ordered by name, paged; no values.`,
    method: 'GET',
    path: SECRETS_PATH,
    internal: INTERNAL_PATH,
    caller: READER,
    params: TENANT,
    query: ListSecretsQueryDto,
    answer: { status: 200, model: SecretNamesPageDto, description: 'One page of names.' },
    refuses: { 400: 'A malformed cursor or limit.' },
  }),
  put: operation({
    id: 'writeSecret',
    tag: 'Secrets',
    summary: 'Write a new version of a secret',
    description: `${WRITE} Creates the secret at version 1, or adds the next version. With \`cas\`, only if the current version is that one (\`0\`: only if the secret does not exist); two writers racing on the same version: one wins, the other gets **409**. The value is sealed before it is stored and never answered here. Each value stored counts against the tenant’s \`secrets_stored\` quota, if its plan has one (docs/plans.md); a write refused gives its unit back.`,
    method: 'PUT',
    path: `${SECRETS_PATH}/:name`,
    internal: `${INTERNAL_PATH}/:name`,
    caller: WRITER,
    params: SECRET,
    body: { type: 'json', model: SecretWriteDto },
    opaque: ['value'],
    answer: { status: 200, model: SecretVersionDto, description: 'The version written.' },
    refuses: {
      400: 'A bad name, a value that is not a string or over 32 KiB, a negative `cas`.',
      409: 'Check-and-set failed: the current version is another.',
      429: 'The tenant’s `secrets_stored` quota is used up until the window ends (`Retry-After`).',
    },
  }),
  read: operation({
    id: 'readSecret',
    tag: 'Secrets',
    summary: 'Read a secret’s value',
    description: `${READ} The current version, or \`version\`. A soft-deleted or destroyed version is 404. Audited (\`secret.read\`, with who and which version) before the value is answered.`,
    method: 'GET',
    path: `${SECRETS_PATH}/:name`,
    internal: `${INTERNAL_PATH}/:name`,
    caller: READER,
    params: SECRET,
    query: ReadSecretQueryDto,
    answer: { status: 200, model: SecretValueDto, description: 'The value.' },
    refuses: { 404: NO_SECRET },
  }),
  metadata: operation({
    id: 'getSecretMetadata',
    tag: 'Secrets',
    summary: 'A secret’s versions, without values',
    description: READ,
    method: 'GET',
    path: `${SECRETS_PATH}/:name/metadata`,
    internal: `${INTERNAL_PATH}/:name/metadata`,
    caller: READER,
    params: SECRET,
    answer: { status: 200, model: SecretMetadataDto, description: 'The versions and their state.' },
    refuses: { 404: NO_SECRET },
  }),
  delete: operation({
    id: 'deleteSecret',
    tag: 'Secrets',
    summary: 'Delete a secret and every version',
    description: `${WRITE} Irreversible.`,
    method: 'DELETE',
    path: `${SECRETS_PATH}/:name`,
    internal: `${INTERNAL_PATH}/:name`,
    caller: WRITER,
    params: SECRET,
    answer: { status: 204, description: 'Deleted.' },
    refuses: { 404: NO_SECRET },
  }),
  softDelete: operation({
    id: 'softDeleteSecretVersion',
    tag: 'Secrets',
    summary: 'Soft-delete a version',
    description: `${WRITE} The value stays sealed in the store; reads of it are 404 until it is undeleted.`,
    method: 'DELETE',
    path: `${SECRETS_PATH}/:name/versions/:version`,
    internal: `${INTERNAL_PATH}/:name/versions/:version`,
    caller: WRITER,
    params: SECRET_VERSION,
    answer: { status: 204, description: 'Deleted.' },
    refuses: { 404: NO_SECRET },
  }),
  undelete: operation({
    id: 'undeleteSecretVersion',
    tag: 'Secrets',
    summary: 'Undelete a version',
    description: WRITE,
    method: 'POST',
    path: `${SECRETS_PATH}/:name/versions/:version/undelete`,
    internal: `${INTERNAL_PATH}/:name/versions/:version/undelete`,
    caller: WRITER,
    params: SECRET_VERSION,
    answer: { status: 204, description: 'Live again.' },
    refuses: { 404: NO_SECRET, 409: 'The version is destroyed.' },
  }),
  destroy: operation({
    id: 'destroySecretVersion',
    tag: 'Secrets',
    summary: 'Destroy a version',
    description: `${WRITE} Its sealed value and wrapped key are erased; the version stays listed as destroyed.`,
    method: 'POST',
    path: `${SECRETS_PATH}/:name/versions/:version/destroy`,
    internal: `${INTERNAL_PATH}/:name/versions/:version/destroy`,
    caller: WRITER,
    params: SECRET_VERSION,
    answer: { status: 204, description: 'Destroyed.' },
    refuses: { 404: NO_SECRET },
  }),
};

/** The key-encryption key's rotation, second step (docs/secrets.md); admin Bearer token. */
export const SECRETS_ADMIN_OPERATIONS = {
  rewrap: operation({
    id: 'rewrapSecrets',
    tag: 'Secrets',
    summary: 'Rewrap every data key under the current KEK',
    description:
      'After SECRETS_KEK was changed (the old key moved to SECRETS_KEK_PREVIOUS on every control plane): wraps each stored data key again under the current key, one version at a time, values untouched, reads and writes going on meanwhile. Run it again after an interruption; once it answers, the old key can be dropped. No body. Audited (`secrets.rewrapped`).',
    method: 'POST',
    path: 'api/v1/secrets/rewrap',
    caller: { kind: 'admin' },
    answer: {
      status: 200,
      model: SecretsRewrapDto,
      description: 'How many data keys moved, and the current key’s id.',
    },
  }),
};
