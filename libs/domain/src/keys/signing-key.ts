export interface SigningKeyRecord {
  kid: string;
  alg: 'RS256';
  /** JSON of the private JWK. Never logged, never returned by any API. */
  privateJwk: string;
  /** JSON of the public JWK. */
  publicJwk: string;
  createdAt: Date;
  /** When a newer key took over signing; the key stays published for one token lifetime. */
  retiredAt: Date | null;
}

export interface SigningKeyStore {
  /** Every stored key, newest first. */
  listSigningKeys(): Promise<SigningKeyRecord[]>;
  insertSigningKey(key: SigningKeyRecord): Promise<void>;
  retireSigningKey(kid: string, at: Date): Promise<void>;
  deleteSigningKey(kid: string): Promise<void>;
  /** Stores the private key anew (sealed, or rewrapped under another KEK). */
  replacePrivateJwk(kid: string, privateJwk: string): Promise<void>;
}
