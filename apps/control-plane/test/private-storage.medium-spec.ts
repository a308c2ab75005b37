import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDataSource } from '@platform/persistence';
import { securePrivateStorage } from '../src/platform/private-storage';

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** The control plane's start: its files made private, then the database opened (and migrated: written). */
async function start(dataDir: string, databaseUrl = `sqlite:${join(dataDir, 'platform.sqlite')}`) {
  const changes = securePrivateStorage({ dataDir, databaseUrl });
  return { changes, dataSource: await openDataSource(databaseUrl) };
}

describe('securePrivateStorage (DATA_DIR 0700, the SQLite file 0600)', () => {
  let root: string;
  let umask: number;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'private-storage-'));
    // The usual umask: what left DATA_DIR 0755 and the database 0644 before.
    umask = process.umask(0o022);
  });
  afterEach(() => {
    process.umask(umask);
    rmSync(root, { recursive: true, force: true });
  });

  it('creates DATA_DIR 0700 and the database, its WAL and shared memory 0600 on a first start', async () => {
    const dataDir = join(root, 'data');
    const { changes, dataSource } = await start(dataDir);
    try {
      expect(modeOf(dataDir)).toBe(0o700);
      for (const file of ['platform.sqlite', 'platform.sqlite-wal', 'platform.sqlite-shm']) {
        expect({ file, mode: modeOf(join(dataDir, file)) }).toEqual({ file, mode: 0o600 });
      }
      expect(changes).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });

  it('tightens a DATA_DIR and files an earlier start left wider, and says so', async () => {
    const dataDir = join(root, 'data');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    const database = join(dataDir, 'platform.sqlite');
    await (await openDataSource(`sqlite:${database}`)).destroy();
    chmodSync(database, 0o644);
    writeFileSync(join(dataDir, 'internal-token'), 'x'.repeat(43), { mode: 0o644 });

    const { changes, dataSource } = await start(dataDir);
    try {
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(database)).toBe(0o600);
      expect(modeOf(join(dataDir, 'internal-token'))).toBe(0o600);
      expect(changes).toEqual(
        expect.arrayContaining([
          `${dataDir} was 0755, tightened to 0700`,
          `${database} was 0644, tightened to 0600`,
        ]),
      );
    } finally {
      await dataSource.destroy();
    }
  });

  it("leaves the operator's own directory of a database outside DATA_DIR alone, the file still 0600", async () => {
    const elsewhere = join(root, 'shared');
    mkdirSync(elsewhere, { mode: 0o755 });
    const { dataSource } = await start(join(root, 'data'), `sqlite:${join(elsewhere, 'db.sqlite')}`);
    try {
      expect(modeOf(elsewhere)).toBe(0o755);
      expect(modeOf(join(elsewhere, 'db.sqlite'))).toBe(0o600);
    } finally {
      await dataSource.destroy();
    }
  });

  it('creates no DATA_DIR for a database elsewhere (Postgres, a read-only pod)', () => {
    const dataDir = join(root, 'data');
    expect(securePrivateStorage({ dataDir, databaseUrl: 'postgres://db.example/platform' })).toEqual([]);
    expect(() => statSync(dataDir)).toThrow(/ENOENT/);
  });
});
