import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

interface BenchRow {
  key: string;
  rps: number | null;
  requests?: number;
  p50?: number;
  p99?: number;
  errors?: number;
  count?: number;
}

interface BenchReport {
  results: BenchRow[];
  processes: Array<{
    process: string;
    pid: number;
    healthyMs: number;
    idleMiB: number | null;
    loadMiB: number | null;
  }>;
  errorFree: boolean;
}

/**
 * How long the harness may take: about 190 s alone on the 2-core machine, 265 s beside the rest
 * of the suite; at a busier hour that reached the old 260 s limit, which killed the run.
 */
const BENCH_TIMEOUT_MS = 600_000;

/** Runs the benchmark harness as `npm run bench` does (after the build), in a child process. */
function runBench(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bench/run.mjs', ...args],
      { cwd: ROOT, timeout: BENCH_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

/**
 * Loads measured under an attack the benchmark stages: how much gets through is what the run's
 * bar judges (a row with no answer fails it), not the smoke; one second of it on a machine busy
 * with the rest of the suite may see no answer at all.
 */
const JUDGED_BY_THE_BAR = ['issuance-argon2-flood'];

describe('npm run bench (quick scenarios, a second each, no warm-up)', () => {
  let dir: string;
  let run: { code: number; output: string };
  let report: BenchReport;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
    const jsonOut = join(dir, 'result.json');
    run = await runBench([
      '--quick',
      '--duration',
      '1',
      // No warm-up, and few connections: the smoke proves every scenario answers, not how fast;
      // 64 connections queued whole seconds of writes behind a one-second window on a busy
      // 2-core machine, which then measured nothing.
      '--warmup',
      '0',
      '--connections',
      '8',
      '--revocations',
      '10',
      '--tokens',
      '500',
      '--json-out',
      jsonOut,
    ]);
    if (run.code !== 0) throw new Error(`bench/run.mjs exited with ${run.code}:\n${run.output}`);
    report = JSON.parse(readFileSync(jsonOut, 'utf8')) as BenchReport;
  }, BENCH_TIMEOUT_MS + 10_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs every scenario of the quick benchmark', () => {
    expect(report.results.map((row) => row.key).sort()).toEqual(
      [
        'audit-append',
        'grpc-validate',
        'introspection',
        'introspection-peer',
        'issuance',
        'issuance-peer',
        'issuance-floor',
        'issuance-floor-writes',
        'exchange',
        'exchange-issuance',
        'issuance-private-key-jwt',
        'issuance-client-secret',
        'saml-validate',
        'saml-rsa-verify',
        'issuance-saml-bearer',
        'issuance-saml-client-secret',
        'saml-login',
        'saml-sign',
        'protected',
        'protected-dpop',
        'revocation',
        'revocation-backend',
        'rs256-sign',
        'rs256-verify',
        'unprotected',
        'webhook-append',
        'webhook-deliveries',
        'webhook-append-10',
        'webhook-deliveries-10',
        'scim-create',
        'scim-lookup',
        'scim-patch',
        'masking',
        'grpc-floor',
        'rate-limit-memory',
        'rate-limit-redis',
        'issuance-limits-off',
        'issuance-limits-memory',
        'issuance-limits-redis',
        'flags',
        'issuance-unmetered',
        'issuance-metered',
        'check-entitlement',
        'consume-quota-database',
        'consume-quota-redis',
        'secrets',
        'jobs',
        'jobs-idle-start',
        'jobs-postgres',
        'jobs-idle-start-postgres',
        'jobs-pg-boss',
        'jobs-idle-start-pg-boss',
        'jobs-graphile-worker',
        'jobs-idle-start-graphile-worker',
        'many-unprotected',
        'many-jose',
        'many-tokens-first-pass',
        'many-tokens',
        'many-tokens-zipf',
        'first-sight',
        'issuance-untraced',
        'issuance-traced',
        'issuance-argon2-calm',
        'issuance-argon2-flood',
      ].sort(),
    );
  });

  it('answers every request of every load without an error, with some throughput', () => {
    for (const row of report.results) {
      expect({ key: row.key, errors: row.errors ?? 0 }).toEqual({ key: row.key, errors: 0 });
      if (row.rps !== null && !JUDGED_BY_THE_BAR.includes(row.key))
        expect({ key: row.key, positive: row.rps > 0 }).toEqual({ key: row.key, positive: true });
    }
    expect(report.errorFree).toBe(true);
  });

  it('presents each of the many tokens once before the many-tokens loads, as its own row', () => {
    expect(report.results.find((row) => row.key === 'many-tokens-first-pass')).toMatchObject({
      requests: 500,
    });
  });

  it('times every revocation until the second sidecar, and the second backend, refuse the token', () => {
    for (const key of ['revocation', 'revocation-backend']) {
      const revocation = report.results.find((row) => row.key === key);
      expect(revocation).toMatchObject({ count: 10, errors: 0 });
      expect(revocation?.p99).toBeGreaterThan(0);
    }
  });

  it('reports start-up time and memory of each process it started', () => {
    expect(report.processes.map((p) => p.process).sort()).toEqual(
      [
        'backend',
        'control-plane',
        'node-oidc-provider',
        'sidecar',
        'sidecar-2',
        'sidecar-redis',
        'sidecar-quota-redis',
        'grpc-floor',
        'backend (limits off)',
        'backend (limits in Redis)',
        'backend-2',
        'backend (postgres)',
        'control-plane (postgres)',
        'sidecar (postgres)',
        'backend (traced)',
        'control-plane (traced)',
        'sidecar (traced)',
        'backend (untraced)',
        'control-plane (untraced)',
        'sidecar (untraced)',
        'backend (flood)',
        'control-plane (flood)',
        'sidecar (flood)',
      ].sort(),
    );
    for (const started of report.processes) {
      expect(started.healthyMs).toBeGreaterThan(0);
      expect(started.idleMiB).toBeGreaterThan(0);
    }
  });

  it('stops every process it started', () => {
    const running = report.processes.filter(({ pid }) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(running).toEqual([]);
  });
});
