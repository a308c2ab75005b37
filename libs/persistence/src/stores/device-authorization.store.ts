import {
  DEVICE_SLOW_DOWN_SECONDS,
  type DeviceAuthorizationRecord,
  type DeviceAuthorizationStatus,
  type DeviceAuthorizationStore,
  type DeviceDecision,
  type DevicePoll,
  type InsertResult,
} from '@platform/domain';
import type { EntityManager } from 'typeorm';
import { DeviceAuthorizationEntity } from '../entities/device-authorization.entity';
import { insertOnce } from './insert-once';
import { pruneBatch } from './prune-batch';

export class TypeOrmDeviceAuthorizationStore implements DeviceAuthorizationStore {
  constructor(private readonly manager: EntityManager) {}

  insertDeviceAuthorization(record: DeviceAuthorizationRecord): Promise<InsertResult> {
    return insertOnce(this.manager, DeviceAuthorizationEntity, { ...record });
  }

  async findDeviceAuthorizationByUserCode(userCodeHash: string): Promise<DeviceAuthorizationRecord | null> {
    const row = await this.manager.findOneBy(DeviceAuthorizationEntity, { userCodeHash });
    return row && toRecord(row);
  }

  async findDeviceAuthorization(deviceCodeHash: string): Promise<DeviceAuthorizationRecord | null> {
    const row = await this.manager.findOneBy(DeviceAuthorizationEntity, { deviceCodeHash });
    return row && toRecord(row);
  }

  async decideDeviceAuthorization(
    userCodeHash: string,
    decision: DeviceDecision,
    now: Date,
  ): Promise<DeviceAuthorizationRecord | null> {
    // The conditional UPDATE is the arbiter: one decision flips a pending request.
    const result = await this.manager
      .createQueryBuilder()
      .update(DeviceAuthorizationEntity)
      .set({ status: decision.status, userId: decision.userId, decidedAt: now })
      .where("user_code_hash = :userCodeHash AND status = 'pending' AND expires_at > :now", {
        userCodeHash,
        now: now.getTime(),
      })
      .execute();
    if ((result.affected ?? 0) === 0) return null;
    return this.findDeviceAuthorizationByUserCode(userCodeHash);
  }

  async recordDevicePoll(deviceCodeHash: string, now: Date): Promise<DevicePoll | null> {
    // A poll on time claims the slot in one conditional UPDATE (the row's lock orders
    // concurrent polls: the second sees the first's time and is too soon).
    const onTime = await this.manager
      .createQueryBuilder()
      .update(DeviceAuthorizationEntity)
      .set({ lastPolledAt: now })
      .where(
        'device_code_hash = :deviceCodeHash AND (last_polled_at IS NULL OR last_polled_at + interval_seconds * 1000 <= :now)',
        { deviceCodeHash, now: now.getTime() },
      )
      .execute();
    const tooSoon = (onTime.affected ?? 0) === 0;
    if (tooSoon) {
      await this.manager
        .createQueryBuilder()
        .update(DeviceAuthorizationEntity)
        .set({ lastPolledAt: now, intervalSeconds: () => `interval_seconds + ${DEVICE_SLOW_DOWN_SECONDS}` })
        .where('device_code_hash = :deviceCodeHash', { deviceCodeHash })
        .execute();
    }
    const record = await this.findDeviceAuthorization(deviceCodeHash);
    return record && { record, tooSoon };
  }

  async consumeDeviceAuthorization(deviceCodeHash: string, now: Date): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(DeviceAuthorizationEntity)
      .set({ consumedAt: now })
      .where("device_code_hash = :deviceCodeHash AND status = 'approved' AND consumed_at IS NULL", {
        deviceCodeHash,
      })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  pruneDeviceAuthorizations(before: Date, limit: number): Promise<number> {
    return pruneBatch(
      this.manager,
      DeviceAuthorizationEntity,
      'device_code_hash',
      'SELECT device_code_hash FROM device_authorizations WHERE expires_at <= :before LIMIT :limit',
      { before: before.getTime(), limit },
    );
  }
}

function toRecord(row: DeviceAuthorizationEntity): DeviceAuthorizationRecord {
  return {
    deviceCodeHash: row.deviceCodeHash,
    userCodeHash: row.userCodeHash,
    grantId: row.grantId,
    clientId: row.clientId,
    scopes: row.scopes,
    status: row.status as DeviceAuthorizationStatus,
    userId: row.userId,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    intervalSeconds: row.intervalSeconds,
    lastPolledAt: row.lastPolledAt,
    decidedAt: row.decidedAt,
    consumedAt: row.consumedAt,
  };
}
