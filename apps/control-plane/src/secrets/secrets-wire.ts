import type { SecretMetadataDto, SecretValueDto, SecretVersionDto } from '@platform/contract';
import type { ResolvedSecret, SecretMetadata, SecretVersion } from '@platform/domain';

export function toSecretVersionResponse(version: Omit<SecretVersion, 'sealed'>): SecretVersionDto {
  return { name: version.name, version: version.version, created_at: version.createdAt.toISOString() };
}

export function toSecretValueResponse(secret: ResolvedSecret): SecretValueDto {
  return {
    name: secret.name,
    version: secret.version,
    created_at: secret.createdAt.toISOString(),
    value: secret.value,
  };
}

export function toSecretMetadataResponse(metadata: SecretMetadata): SecretMetadataDto {
  return {
    name: metadata.name,
    current_version: metadata.currentVersion,
    created_at: metadata.createdAt.toISOString(),
    updated_at: metadata.updatedAt.toISOString(),
    versions: metadata.versions.map((v) => ({
      version: v.version,
      created_at: v.createdAt.toISOString(),
      deleted_at: v.deletedAt?.toISOString() ?? null,
      destroyed: v.destroyed,
    })),
  };
}
