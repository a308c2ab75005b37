import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Min } from 'class-validator';
import { TimestampProperty } from './fields';
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
