import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { KeyObject, type webcrypto } from 'node:crypto';
import type { Clock } from '../clock';
import { PLATFORM_ACTOR, type AuditActor, type AuditTrail } from '../audit/audit-trail';
import type { Transactor } from '../storage';
import type { SigningKeyRecord, SigningKeyStore } from './signing-key';
import { rs256PrivateKey } from '../tokens/jws';
import type { Envelope } from '../secrets/envelope';
import { rewrapText } from '../secrets/sealed-text';
import { openPrivateJwk, sealPrivateJwk } from './sealed-private-key';

type CryptoKey = webcrypto.CryptoKey;

/** The members of an RSA public key published in the key set. */
export interface PublicJwk {
  kty: 'RSA';
  use: 'sig';
  alg: 'RS256';
  kid: string;
  n: string;
  e: string;
}

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
}

interface LoadedKey {
  record: SigningKeyRecord;
  publicJwk: PublicJwk;
  publicKey: CryptoKey;
  /** The same key for node:crypto's synchronous verification (checkedAccessTokenPayload). */
  publicKeyObject: KeyObject;
}

/**
 * The control plane's signing keys. The newest key signs; a key that a newer one replaced
 * stays published (and accepted) for one token lifetime plus a minute of clock skew, then is
 * deleted. Keys are imported once per load, never per token. Private keys are stored sealed by
 * the secrets' envelope (docs/secrets.md); a key found in the clear is sealed on load.
 */
export class SigningKeyRing {
  private signing: SigningKey | undefined;
  private published: LoadedKey[] = [];
  private jwks: { keys: PublicJwk[] } = { keys: [] };

  constructor(
    private readonly store: SigningKeyStore,
    private readonly envelope: Envelope,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
    private readonly tokenLifetimeSeconds: number,
  ) {}

  /** Reads the stored keys, creating the first one when there is none. */
  async load(): Promise<void> {
    let records = await this.store.listSigningKeys();
    if (records.length === 0) {
      await this.store.insertSigningKey(await generateSigningKey(this.envelope, this.clock.now()));
      records = await this.store.listSigningKeys();
    }
    const now = this.clock.now().getTime();
    const graceMs = this.graceMs();
    const live: SigningKeyRecord[] = [];
    for (const record of records) {
      if (record.retiredAt && record.retiredAt.getTime() + graceMs < now) {
        await this.store.deleteSigningKey(record.kid);
      } else {
        live.push(record);
      }
    }
    // The newest key that no rotation has retired signs (ties on createdAt are possible).
    const newest = live.find((k) => !k.retiredAt) ?? live[0];
    const { jwk } = openPrivateJwk(this.envelope, newest.kid, newest.privateJwk);
    this.signing = { kid: newest.kid, privateKey: rs256PrivateKey(jwk) };
    for (const record of live) {
      const { jwk: opened, kekId } = openPrivateJwk(this.envelope, record.kid, record.privateJwk);
      const sealed = kekId === null && sealPrivateJwk(this.envelope, record.kid, JSON.stringify(opened));
      if (sealed) await this.store.replacePrivateJwk(record.kid, sealed);
    }
    this.published = await Promise.all(live.map(loadPublic));
    this.jwks = { keys: this.published.map((k) => k.publicJwk) };
  }

  /**
   * Creates a new key that signs from now on; the previous one stays published. The new key,
   * the retirements, a `signing_key` entry of the revocation feed (which other control-plane
   * replicas follow to reload their keys at once) and the `signing_key.rotated` record commit
   * together.
   */
  async rotate(actor: AuditActor = PLATFORM_ACTOR): Promise<{ kid: string; createdAt: Date }> {
    const now = this.clock.now();
    const record = await generateSigningKey(this.envelope, now);
    await this.transactor.inTransaction(async (stores) => {
      await stores.signingKeys.insertSigningKey(record);
      const retired = this.published.filter((key) => !key.record.retiredAt).map((key) => key.record.kid);
      for (const kid of retired) await stores.signingKeys.retireSigningKey(kid, now);
      await stores.revocations.addRevocations(
        [{ kind: 'signing_key', value: record.kid, expiresAt: new Date(now.getTime() + this.graceMs()) }],
        now,
      );
      await stores.audit.appendAuditRecords([
        this.trail.record({
          actor,
          action: 'signing_key.rotated',
          target: record.kid,
          attributes: { retired: retired.join(' ') },
          occurredAt: now,
        }),
      ]);
    });
    await this.load();
    return { kid: record.kid, createdAt: now };
  }

  /**
   * The scheduled rotation: rotates when the key that signs (as the store has it now, so a
   * rotation by another replica counts) is older than `maxAgeSeconds`. Answers whether it did.
   */
  async rotateIfOlderThan(maxAgeSeconds: number): Promise<boolean> {
    const signing = (await this.store.listSigningKeys()).filter((key) => !key.retiredAt);
    const newest = Math.max(...signing.map((key) => key.createdAt.getTime()));
    if (signing.length > 0 && this.clock.now().getTime() - newest < maxAgeSeconds * 1000) return false;
    await this.rotate(PLATFORM_ACTOR);
    return true;
  }

  /** After a KEK rotation: every private key wrapped again under the current KEK; answers how many. */
  async rewrap(): Promise<number> {
    let rewrapped = 0;
    for (const record of await this.store.listSigningKeys()) {
      const moved = rewrapText(this.envelope, record.privateJwk);
      if (moved) {
        await this.store.replacePrivateJwk(record.kid, moved);
        rewrapped += 1;
      }
    }
    return rewrapped;
  }

  /** How long a replaced key stays published: one token lifetime plus a minute of clock skew. */
  private graceMs(): number {
    return (this.tokenLifetimeSeconds + 60) * 1000;
  }

  signingKey(): SigningKey {
    if (!this.signing) throw new Error('signing keys not loaded');
    return this.signing;
  }

  verificationKey(kid: string): CryptoKey | undefined {
    return this.published.find((k) => k.record.kid === kid)?.publicKey;
  }

  verificationKeyObject(kid: string): KeyObject | undefined {
    return this.published.find((k) => k.record.kid === kid)?.publicKeyObject;
  }

  publicJwks(): { keys: PublicJwk[] } {
    return this.jwks;
  }
}

async function generateSigningKey(envelope: Envelope, now: Date): Promise<SigningKeyRecord> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', {
    modulusLength: 2048,
    extractable: true,
  });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    kid,
    alg: 'RS256',
    privateJwk: sealPrivateJwk(envelope, kid, JSON.stringify(await exportJWK(privateKey))),
    publicJwk: JSON.stringify(publicJwk),
    createdAt: now,
    retiredAt: null,
  };
}

async function loadPublic(record: SigningKeyRecord): Promise<LoadedKey> {
  const jwk = JSON.parse(record.publicJwk) as JWK;
  const publicJwk: PublicJwk = {
    kty: 'RSA',
    use: 'sig',
    alg: 'RS256',
    kid: record.kid,
    n: jwk.n!,
    e: jwk.e!,
  };
  const publicKey = (await importJWK(publicJwk, 'RS256')) as CryptoKey;
  return { record, publicJwk, publicKey, publicKeyObject: KeyObject.from(publicKey) };
}
