import type { AuditAttributes, AuditRecord } from '../audit/audit-record';
import { type AuditActor, auditActorOf, type AuditTrail } from '../audit/audit-trail';
import type { Clock } from '../clock';
import { conflict, notFound, validationFailed } from '../errors';
import type { Stores, Transactor } from '../storage';
import { type ActingPrincipal, assertReachesTenant } from '../users/user-administration';
import { noUnitsTaken, PLATFORM_METERS, type UsageMeter } from '../plans/usage-meter';
import type { Envelope } from './envelope';
import {
  checkSecretName,
  type SecretMetadata,
  type SecretStore,
  type SecretVersion,
  secretAssociatedData,
} from './secret';

/** A secret value, at most: configuration and credentials, not files (and inside the 64 KiB request body). */
export const MAX_SECRET_BYTES = 32_768;
const REWRAP_PAGE = 100;

export interface ResolvedSecret {
  tenant: string;
  name: string;
  version: number;
  value: string;
  createdAt: Date;
}

export type VersionState = 'deleted' | 'undeleted' | 'destroyed';

/**
 * A tenant's secrets (docs/secrets.md; Vault's KV v2 is the model): named values in versions,
 * check-and-set on write, soft delete, undelete and destroy of a version. Values are sealed by
 * the envelope before they reach the store and opened only to answer a read; every write is
 * audited in its transaction, every read before its value is answered. No value, sealed or not,
 * is ever in an error, an audit record or a log line.
 */
export class SecretVault {
  constructor(
    private readonly envelope: Envelope,
    private readonly secrets: Pick<
      SecretStore,
      | 'findSecretVersion'
      | 'latestSecretVersion'
      | 'listSecretVersions'
      | 'listSecretNames'
      | 'listSealedOutside'
    >,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    /** Appends the audit record of a read (the audit log's group commit). */
    private readonly auditRead: (event: ReturnType<AuditTrail['record']>) => Promise<AuditRecord>,
    private readonly clock: Clock,
    /** Counts each value stored against the tenant's `secrets_stored` quota (docs/plans.md). */
    private readonly meter?: UsageMeter,
  ) {}

  /**
   * Writes the next version. `cas`: only when the current version is this one (0: only when the
   * secret does not exist yet); 409 otherwise, as for a writer that lost a race.
   */
  async put(
    principal: ActingPrincipal,
    tenant: string,
    name: string,
    value: string,
    cas?: number,
  ): Promise<Omit<SecretVersion, 'sealed'>> {
    this.check(principal, tenant, name);
    if (typeof value !== 'string' || Buffer.byteLength(value, 'utf8') > MAX_SECRET_BYTES) {
      throw validationFailed(`value must be a string of at most ${MAX_SECRET_BYTES} bytes`);
    }
    const giveBack = (await this.meter?.take(tenant, PLATFORM_METERS.secretsStored)) ?? noUnitsTaken;
    const stored = this.transactor.inTransaction(async (stores) => {
      const current = (await stores.secrets.latestSecretVersion(tenant, name))?.version ?? 0;
      if (cas !== undefined && cas !== current) {
        throw conflict(`check-and-set failed: the current version of ${name} is ${current}, not ${cas}`);
      }
      const version = current + 1;
      const written: SecretVersion = {
        tenant,
        name,
        version,
        sealed: this.envelope.seal(Buffer.from(value, 'utf8'), secretAssociatedData(tenant, name, version)),
        createdAt: this.clock.now(),
        deletedAt: null,
        destroyed: false,
      };
      if (!(await stores.secrets.insertSecretVersion(written))) {
        throw conflict(`another write made version ${version} of ${name} first: read it and write again`);
      }
      await this.audited(stores, principal, tenant, name, 'secret.written', { version });
      const { sealed: _sealed, ...answer } = written;
      return answer;
    });
    // A write refused (check-and-set, a race) stored nothing: its unit goes back.
    return stored.catch(async (error: unknown) => {
      await giveBack();
      throw error;
    });
  }

  /** The value of one version (default: the current one); a deleted or destroyed version is 404. */
  async read(
    principal: ActingPrincipal,
    tenant: string,
    name: string,
    version?: number,
  ): Promise<ResolvedSecret> {
    this.check(principal, tenant, name);
    const found =
      version === undefined
        ? await this.secrets.latestSecretVersion(tenant, name)
        : await this.secrets.findSecretVersion(tenant, name, version);
    if (!found)
      throw notFound(version === undefined ? `secret ${name}` : `version ${version} of secret ${name}`);
    if (found.destroyed || found.deletedAt !== null || found.sealed === null) {
      throw notFound(
        `version ${found.version} of secret ${name} (${found.destroyed ? 'destroyed' : 'deleted'})`,
      );
    }
    const value = this.envelope
      .open(found.sealed, secretAssociatedData(tenant, name, found.version))
      .toString('utf8');
    await this.auditRead(
      this.trail.record({
        actor: auditActorOf(principal),
        action: 'secret.read',
        tenant,
        target: name,
        attributes: { version: found.version },
      }),
    );
    return { tenant, name, version: found.version, value, createdAt: found.createdAt };
  }

  async metadata(principal: ActingPrincipal, tenant: string, name: string): Promise<SecretMetadata> {
    this.check(principal, tenant, name);
    const versions = await this.secrets.listSecretVersions(tenant, name);
    if (versions.length === 0) throw notFound(`secret ${name}`);
    const last = versions[versions.length - 1];
    return {
      tenant,
      name,
      currentVersion: last.version,
      createdAt: versions[0].createdAt,
      updatedAt: last.createdAt,
      versions: versions.map(({ version, createdAt, deletedAt, destroyed }) => ({
        version,
        createdAt,
        deletedAt,
        destroyed,
      })),
    };
  }

  /** The names of the tenant's secrets, ordered, after `after`. */
  list(principal: ActingPrincipal, tenant: string, after: string, limit: number): Promise<string[]> {
    this.check(principal, tenant, 'any');
    return this.secrets.listSecretNames(tenant, after, limit);
  }

  /** Soft delete, undelete or destroy one version; 404 when it does not exist. */
  async changeVersion(
    principal: ActingPrincipal,
    tenant: string,
    name: string,
    version: number,
    state: VersionState,
  ): Promise<void> {
    this.check(principal, tenant, name);
    await this.transactor.inTransaction(async (stores) => {
      const found = await stores.secrets.findSecretVersion(tenant, name, version);
      if (!found) throw notFound(`version ${version} of secret ${name}`);
      if (found.destroyed && state !== 'destroyed') {
        throw conflict(`version ${version} of secret ${name} is destroyed: it cannot be ${state}`);
      }
      const change =
        state === 'destroyed'
          ? { destroyed: true as const }
          : { deletedAt: state === 'deleted' ? (found.deletedAt ?? this.clock.now()) : null };
      await stores.secrets.updateSecretVersions(tenant, name, [version], change);
      await this.audited(stores, principal, tenant, name, `secret.version_${state}`, { version });
    });
  }

  /** Removes the secret with every version and value. */
  async delete(principal: ActingPrincipal, tenant: string, name: string): Promise<void> {
    this.check(principal, tenant, name);
    await this.transactor.inTransaction(async (stores) => {
      if (!(await stores.secrets.deleteSecret(tenant, name))) throw notFound(`secret ${name}`);
      await this.audited(stores, principal, tenant, name, 'secret.deleted', {});
    });
  }

  /**
   * Moves every data key under the current KEK (after a KEK rotation), page by page, each
   * version in its own small transaction: values are not touched, reads go on meanwhile, and a
   * rewrap cut short is finished by the next one. Answers how many were rewrapped; `also`: what
   * else was rewrapped with it (the signing keys), for the audit record.
   */
  async rewrap(actor: AuditActor, also: AuditAttributes = {}): Promise<{ rewrapped: number; kekId: string }> {
    const kekId = this.envelope.currentKekId;
    let rewrapped = 0;
    for (;;) {
      const page = await this.secrets.listSealedOutside(kekId, REWRAP_PAGE);
      if (page.length === 0) break;
      for (const version of page) {
        const sealed = this.envelope.rewrap(version.sealed as NonNullable<SecretVersion['sealed']>);
        if (sealed) {
          await this.transactor.inTransaction((stores) =>
            stores.secrets.rewrapSecretVersion(version.tenant, version.name, version.version, sealed),
          );
          rewrapped += 1;
        }
      }
    }
    await this.transactor.inTransaction((stores) =>
      stores.audit.appendAuditRecords([
        this.trail.record({
          actor,
          action: 'secrets.rewrapped',
          attributes: { kek_id: kekId, rewrapped, ...also },
        }),
      ]),
    );
    return { rewrapped, kekId };
  }

  private check(principal: ActingPrincipal, tenant: string, name: string): void {
    checkSecretName(tenant, name);
    assertReachesTenant(principal, tenant);
  }

  private async audited(
    stores: Stores,
    principal: ActingPrincipal,
    tenant: string,
    name: string,
    action: string,
    attributes: { version?: number },
  ): Promise<void> {
    await stores.audit.appendAuditRecords([
      this.trail.record({ actor: auditActorOf(principal), action, tenant, target: name, attributes }),
    ]);
  }
}
