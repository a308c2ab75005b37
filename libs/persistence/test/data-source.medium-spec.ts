import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import {
  createDataSource,
  DatabaseUrlError,
  dataSourceOptions,
  MIGRATIONS,
  openDataSource,
  TypeOrmStores,
} from '../src';
import { anApplication, aSession } from './support/factories';

describe(openDataSource.name, () => {
  let directory: string;
  const opened: DataSource[] = [];

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'persistence-'));
  });
  afterEach(async () => {
    for (const dataSource of opened.splice(0)) if (dataSource.isInitialized) await dataSource.destroy();
    rmSync(directory, { recursive: true, force: true });
  });

  const open = async (url: string) => {
    const dataSource = await openDataSource(url);
    opened.push(dataSource);
    return dataSource;
  };
  /** `count` issued-token events spread evenly over `clients` client ids. */
  const tokenEvents = (count: number, clients: number) =>
    Array.from({ length: count }, (_, i) => ({
      type: 'token.issued' as const,
      clientId: `client-${i % clients}`,
      subject: null,
      jti: `jti-${i}`,
      grantId: null,
      occurredAt: new Date(),
    }));
  const pragma = async (dataSource: DataSource, name: string) => {
    const [row] = (await dataSource.query(`PRAGMA ${name}`)) as Array<Record<string, unknown>>;
    return Object.values(row)[0];
  };

  it('creates the parent directories of a SQLite file', async () => {
    const dataSource = await open(`sqlite:${join(directory, 'nested', 'deeper', 'platform.sqlite')}`);

    await expect(dataSource.showMigrations()).resolves.toBe(false);
  });

  it('tunes a SQLite file for one busy writer: WAL, NORMAL sync, a busy timeout, foreign keys', async () => {
    const dataSource = await open(`sqlite:${join(directory, 'platform.sqlite')}`);

    await expect(pragma(dataSource, 'journal_mode')).resolves.toBe('wal');
    await expect(pragma(dataSource, 'synchronous')).resolves.toBe(1);
    await expect(pragma(dataSource, 'busy_timeout')).resolves.toBeGreaterThan(0);
    await expect(pragma(dataSource, 'foreign_keys')).resolves.toBe(1);
  });

  it('keeps data across restarts and does not migrate twice', async () => {
    const url = `sqlite:${join(directory, 'platform.sqlite')}`;
    const app = anApplication();
    const first = await open(url);
    await TypeOrmStores.forDataSource(first).applications.insertApplication(app);
    await first.destroy();

    const second = await open(url);

    await expect(
      TypeOrmStores.forDataSource(second).applications.findApplication(app.clientId),
    ).resolves.toEqual(app);
    await expect(second.query('SELECT name FROM migrations')).resolves.toHaveLength(MIGRATIONS.length);
  });

  it("gives SQLite's planner statistics of the tables that grew when it opens the file", async () => {
    const url = `sqlite:${join(directory, 'platform.sqlite')}`;
    const first = await open(url);
    await TypeOrmStores.forDataSource(first).tokenEvents.appendTokenEvents(tokenEvents(2_000, 20));
    const tokenEventStats = "SELECT stat FROM sqlite_stat1 WHERE tbl = 'token_events'";
    await expect(first.query(tokenEventStats)).resolves.toEqual([]);
    await first.destroy();

    const second = await open(url);

    // 2,000 rows, 100 per client_id.
    await expect(second.query(`${tokenEventStats} AND idx = 'idx_token_events_client_id'`)).resolves.toEqual([
      { stat: '2000 100' },
    ]);
  });

  it('refreshes those statistics every six hours while it stays open', async () => {
    const every = jest.spyOn(global, 'setInterval');
    const dataSource = await open(`sqlite:${join(directory, 'platform.sqlite')}`);
    const [refresh, period] = every.mock.calls.find(([, ms]) => ms === 6 * 60 * 60_000)!;
    every.mockRestore();
    expect(period).toBe(6 * 60 * 60_000);

    await TypeOrmStores.forDataSource(dataSource).tokenEvents.appendTokenEvents(tokenEvents(2_000, 40));
    // A query that would use the index: SQLite's optimize analyzes what this connection needed.
    await TypeOrmStores.forDataSource(dataSource).tokenEvents.listTokenEvents({
      clientId: 'client-1',
      limit: 1,
    });
    const stats = "SELECT stat FROM sqlite_stat1 WHERE idx = 'idx_token_events_client_id'";
    await expect(dataSource.query(stats)).resolves.toEqual([]);

    (refresh as () => void)();
    // The run goes through the connection lock: the next statement waits for it.
    await expect(
      TypeOrmStores.forDataSource(dataSource).tokenEvents.listTokenEvents({ limit: 1 }),
    ).resolves.toHaveLength(1);
    await expect(dataSource.query(stats)).resolves.toEqual([{ stat: '2000 50' }]);
  });

  it('brings a database of the first release up to date, keeping its data', async () => {
    const url = `sqlite:${join(directory, 'platform.sqlite')}`;
    const app = anApplication();
    const firstRelease = await new DataSource({
      ...dataSourceOptions(url),
      migrations: [MIGRATIONS[0]],
    }).initialize();
    // As the first release wrote them: only the columns it had.
    await firstRelease.query(
      `INSERT INTO applications (client_id, name, app_type, declared_scopes, redirect_uris, secret_hash, created_at, rotated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, NULL)`,
      [
        app.clientId,
        app.name,
        app.appType,
        JSON.stringify(app.declaredScopes),
        JSON.stringify(app.redirectUris),
        app.secretHash,
        app.createdAt.getTime(),
      ],
    );
    await firstRelease.query(
      `INSERT INTO users (id, issuer, subject, email, name, tenant, roles, created_at, updated_at)
       VALUES ('user-1', 'https://idp.example', 'sub-1', 'ada@example.com', 'Ada', 'acme', '["user"]', 1, 2)`,
    );
    // A refresh family rotated once (the first token at 1,000), and another begun at 7,000.
    for (const [hash, grant, createdAt] of [
      ['rt-1', 'grant-1', 1_000],
      ['rt-2', 'grant-1', 5_000],
      ['rt-3', 'grant-2', 7_000],
    ] as const) {
      await firstRelease.query(
        `INSERT INTO refresh_tokens (token_hash, grant_id, client_id, user_id, scopes, created_at, expires_at, rotated_at, revoked_at)
         VALUES (?, ?, ?, 'user-1', '["jobs.read"]', ?, ?, NULL, NULL)`,
        [hash, grant, app.clientId, createdAt, createdAt + 1_000_000],
      );
    }
    await firstRelease.destroy();

    const upgraded = await open(url);

    const stores = TypeOrmStores.forDataSource(upgraded);
    await expect(stores.applications.findApplication(app.clientId)).resolves.toEqual(app);
    // The redirect URI index is filled from the apps there were.
    await expect(stores.applications.findApplicationsByRedirectUri(app.redirectUris[0], 2)).resolves.toEqual([
      app,
    ]);
    await expect(stores.users.findUser('user-1')).resolves.toMatchObject({
      issuer: 'https://idp.example',
      subject: 'sub-1',
      email: 'ada@example.com',
      roles: ['user'],
      active: true,
      userName: null,
      version: 1,
    });
    const session = aSession();
    await stores.sessions.insertSession(session);
    await expect(stores.sessions.findSession(session.sessionHash)).resolves.toEqual(session);
    // Each refresh family begins at its oldest stored token (docs/tokens.md, "Upgrading").
    const familyStarts = await Promise.all(
      ['rt-1', 'rt-2', 'rt-3'].map(
        async (hash) => (await stores.refreshTokens.findRefreshToken(hash))?.familyCreatedAt,
      ),
    );
    expect(familyStarts).toEqual([new Date(1_000), new Date(1_000), new Date(7_000)]);
  });

  it('opens an in-memory SQLite database for tests', async () => {
    const dataSource = await open('sqlite::memory:');

    await expect(dataSource.showMigrations()).resolves.toBe(false);
  });

  it('refuses an unsupported URL without echoing it', () => {
    const attempt = () => createDataSource('mysql://operator:hunter2@db.internal/platform');

    expect(attempt).toThrow(DatabaseUrlError);
    expect(attempt).not.toThrow(/hunter2|operator|db\.internal/);
  });

  it('refuses a sqlite: URL without a path', () => {
    expect(() => createDataSource('sqlite:')).toThrow(DatabaseUrlError);
  });
});
