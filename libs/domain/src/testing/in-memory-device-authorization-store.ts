import type {
  DeviceAuthorizationRecord,
  DeviceAuthorizationStore,
  DeviceDecision,
  DevicePoll,
} from '../device/device-authorization';
import { DEVICE_SLOW_DOWN_SECONDS } from '../device/device-authorization';
import type { InsertResult } from '../storage';

const copy = <T>(value: T): T => structuredClone(value);

/** The device authorization requests of the unit specs, as the contract in the interface says. */
export class InMemoryDeviceAuthorizationStore implements DeviceAuthorizationStore {
  private rows = new Map<string, DeviceAuthorizationRecord>();

  async insertDeviceAuthorization(record: DeviceAuthorizationRecord): Promise<InsertResult> {
    const taken = [...this.rows.values()].some(
      (row) => row.userCodeHash === record.userCodeHash || row.deviceCodeHash === record.deviceCodeHash,
    );
    if (taken) return 'duplicate';
    this.rows.set(record.deviceCodeHash, copy(record));
    return 'created';
  }

  async findDeviceAuthorizationByUserCode(userCodeHash: string): Promise<DeviceAuthorizationRecord | null> {
    const row = [...this.rows.values()].find((candidate) => candidate.userCodeHash === userCodeHash);
    return row ? copy(row) : null;
  }

  async findDeviceAuthorization(deviceCodeHash: string): Promise<DeviceAuthorizationRecord | null> {
    const row = this.rows.get(deviceCodeHash);
    return row ? copy(row) : null;
  }

  async decideDeviceAuthorization(
    userCodeHash: string,
    decision: DeviceDecision,
    now: Date,
  ): Promise<DeviceAuthorizationRecord | null> {
    const row = [...this.rows.values()].find((candidate) => candidate.userCodeHash === userCodeHash);
    if (!row || row.status !== 'pending' || row.expiresAt <= now) return null;
    Object.assign(row, { status: decision.status, userId: decision.userId, decidedAt: new Date(now) });
    return copy(row);
  }

  async recordDevicePoll(deviceCodeHash: string, now: Date): Promise<DevicePoll | null> {
    const row = this.rows.get(deviceCodeHash);
    if (!row) return null;
    const tooSoon =
      row.lastPolledAt !== null && now.getTime() < row.lastPolledAt.getTime() + row.intervalSeconds * 1000;
    if (tooSoon) row.intervalSeconds += DEVICE_SLOW_DOWN_SECONDS;
    row.lastPolledAt = new Date(now);
    return { record: copy(row), tooSoon };
  }

  async consumeDeviceAuthorization(deviceCodeHash: string, now: Date): Promise<boolean> {
    const row = this.rows.get(deviceCodeHash);
    if (!row || row.status !== 'approved' || row.consumedAt !== null) return false;
    row.consumedAt = new Date(now);
    return true;
  }

  async pruneDeviceAuthorizations(before: Date, limit: number): Promise<number> {
    let deleted = 0;
    for (const [key, row] of this.rows) {
      if (deleted === limit) break;
      if (row.expiresAt > before) continue;
      this.rows.delete(key);
      deleted += 1;
    }
    return deleted;
  }

  all(): DeviceAuthorizationRecord[] {
    return [...this.rows.values()].map(copy);
  }

  snapshot(): unknown {
    return copy(this.rows);
  }

  restore(state: unknown): void {
    this.rows = state as Map<string, DeviceAuthorizationRecord>;
  }
}
