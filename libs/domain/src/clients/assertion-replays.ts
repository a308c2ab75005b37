import { hash } from 'node:crypto';
import { GroupCommit } from '../group-commit';

/**
 * One use of a signed assertion, remembered until it expires so it cannot be used again: a
 * client assertion's `jti` (private_key_jwt), a workload token presented for federation, a SAML
 * assertion's `ID` (sign-in and the SAML bearer grant).
 */
export interface AssertionUse {
  /** SHA-256 (hex) of what identifies the assertion (`assertionKey`): short and fixed-size. */
  key: string;
  /** Past this the assertion is refused for its `exp` anyway: the row may go. */
  expiresAt: Date;
}

/** The table of used assertions (`assertion_uses`), shared by every control-plane replica. */
export interface AssertionReplayStore {
  /**
   * Inserts each use under its unique key, once: answers the keys that were new. A key already
   * there (used before, by this replica or another) is not among them.
   */
  rememberAssertions(uses: AssertionUse[]): Promise<string[]>;
  /** Deletes up to `limit` uses that expired before `before`; answers how many went. */
  pruneAssertions(before: Date, limit: number): Promise<number>;
}

/**
 * What kind of assertion a key names: a client's `jti`, a workload token and a SAML assertion
 * (issuer: the tenant and its IdP's entity id) never clash.
 */
export type AssertionKind = 'client_assertion' | 'federated_token' | 'saml_assertion';

/** The key of an assertion: its kind, its issuer (a client_id, an issuer URL) and its id. */
export function assertionKey(kind: AssertionKind, issuer: string, id: string): string {
  return hash('sha256', `${kind}\0${issuer}\0${id}`, 'hex');
}

/**
 * First use or replay, decided by the database's unique key (so across replicas and restarts).
 * Uses arriving in the same turn of the event loop share one INSERT (GroupCommit), as token
 * events do: a private_key_jwt issuance pays a share of one statement, not a statement.
 */
export class AssertionReplays {
  private readonly commits: GroupCommit<AssertionUse, boolean>;

  constructor(store: Pick<AssertionReplayStore, 'rememberAssertions'>) {
    this.commits = new GroupCommit<AssertionUse, boolean>(async (uses) => {
      const first = new Map<string, AssertionUse>();
      for (const use of uses) if (!first.has(use.key)) first.set(use.key, use);
      const fresh = new Set(await store.rememberAssertions([...first.values()]));
      // Within the batch, only the first of two uses of one key is the first use.
      return uses.map((use) => fresh.has(use.key) && first.get(use.key) === use);
    });
  }

  /** true the first time `key` is presented; false for a replay (until it is pruned after `expiresAt`). */
  firstUse(key: string, expiresAt: Date): Promise<boolean> {
    return this.commits.submit({ key, expiresAt });
  }
}
