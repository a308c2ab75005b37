import type { SigningKeyRecord, SigningKeyStore } from '@platform/domain';
import type { EntityManager } from 'typeorm';
import { SigningKeyEntity } from '../entities/signing-key.entity';

export class TypeOrmSigningKeyStore implements SigningKeyStore {
  constructor(private readonly manager: EntityManager) {}

  async listSigningKeys(): Promise<SigningKeyRecord[]> {
    const rows = await this.manager.find(SigningKeyEntity, { order: { createdAt: 'DESC', kid: 'DESC' } });
    return rows.map(toSigningKey);
  }

  async insertSigningKey(key: SigningKeyRecord): Promise<void> {
    await this.manager.insert(SigningKeyEntity, { ...key });
  }

  async retireSigningKey(kid: string, at: Date): Promise<void> {
    await this.manager.update(SigningKeyEntity, { kid }, { retiredAt: at });
  }

  async deleteSigningKey(kid: string): Promise<void> {
    await this.manager.delete(SigningKeyEntity, { kid });
  }

  async replacePrivateJwk(kid: string, privateJwk: string): Promise<void> {
    await this.manager.update(SigningKeyEntity, { kid }, { privateJwk });
  }
}

function toSigningKey(row: SigningKeyEntity): SigningKeyRecord {
  return {
    kid: row.kid,
    alg: row.alg as SigningKeyRecord['alg'],
    privateJwk: row.privateJwk,
    publicJwk: row.publicJwk,
    createdAt: row.createdAt,
    retiredAt: row.retiredAt,
  };
}
