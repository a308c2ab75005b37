import { validationFailed } from '../errors';
import type { SealedValue } from './envelope';

/** One version of a secret as stored: the value sealed (null once destroyed). */
export interface SecretVersion {
  tenant: string;
  name: string;
  /** 1 for the first write, one more for each. */
  version: number;
  sealed: SealedValue | null;
  createdAt: Date;
  /** Soft-deleted: the value is kept and can be undeleted. */
  deletedAt: Date | null;
  /** Destroyed: the value is gone for good. */
  destroyed: boolean;
}

/** A secret and every version of it, oldest first, values left out. */
export interface SecretMetadata {
  tenant: string;
  name: string;
  currentVersion: number;
  createdAt: Date;
  updatedAt: Date;
  versions: Array<Omit<SecretVersion, 'tenant' | 'name' | 'sealed'>>;
}

export interface SecretStore {
  /**
   * Adds version `version` of the secret; false when that version exists already (a writer that
   * read the same current version got there first).
   */
  insertSecretVersion(version: SecretVersion): Promise<boolean>;
  findSecretVersion(tenant: string, name: string, version: number): Promise<SecretVersion | null>;
  /** The highest version of the secret, whatever its state; null when the secret does not exist. */
  latestSecretVersion(tenant: string, name: string): Promise<SecretVersion | null>;
  /** Every version of the secret, oldest first. */
  listSecretVersions(tenant: string, name: string): Promise<SecretVersion[]>;
  /** The names of the tenant's secrets, ordered, after `after`, at most `limit`. */
  listSecretNames(tenant: string, after: string, limit: number): Promise<string[]>;
  /** Sets the state of the listed versions (sealed: null destroys); answers how many exist. */
  updateSecretVersions(
    tenant: string,
    name: string,
    versions: readonly number[],
    change: { deletedAt?: Date | null; destroyed?: true },
  ): Promise<number>;
  /** Removes the secret and all its versions; false when there was none. */
  deleteSecret(tenant: string, name: string): Promise<boolean>;
  /** Up to `limit` live versions whose data key is not wrapped by `kekId`. */
  listSealedOutside(kekId: string, limit: number): Promise<SecretVersion[]>;
  /** Replaces the wrapped data key of one version (its ciphertext unchanged). */
  rewrapSecretVersion(tenant: string, name: string, version: number, sealed: SealedValue): Promise<void>;
}

const NAME = /^[A-Za-z0-9._-]{1,128}$/;
const TENANT = /^[A-Za-z0-9._-]{1,64}$/;

export function checkSecretName(tenant: string, name: string): void {
  if (!TENANT.test(tenant)) throw validationFailed('tenant must be 1 to 64 of A-Z a-z 0-9 . _ -');
  if (!NAME.test(name)) throw validationFailed('a secret name must be 1 to 128 of A-Z a-z 0-9 . _ -');
}

/** What `secret://<tenant>/<name>[#<version>]` points at (no version: the current one). */
export interface SecretReference {
  tenant: string;
  name: string;
  version?: number;
}

const REFERENCE = /^secret:\/\/([^/#]+)\/([^/#]+)(?:#([1-9][0-9]{0,8}))?$/;

export function parseSecretReference(reference: string): SecretReference {
  const match = REFERENCE.exec(reference);
  if (!match)
    throw validationFailed(
      'a secret reference is secret://<tenant>/<name> or secret://<tenant>/<name>#<version>',
    );
  const [, tenant, name, version] = match;
  checkSecretName(tenant, name);
  return version === undefined ? { tenant, name } : { tenant, name, version: Number(version) };
}

/** What a version's ciphertext is bound to: moved to another secret or version, it does not open. */
export function secretAssociatedData(tenant: string, name: string, version: number): string {
  return ['secret', tenant, name, String(version)].join('\0');
}
