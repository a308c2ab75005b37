import { mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertRunning, keepsLogs, onCleanup, track } from './processes.mjs';
import { profilingEnv } from './profiling.mjs';
import { processAgeMs } from './proc.mjs';

const require = createRequire(import.meta.url);
/** The launcher `npm start` and the end-to-end suite use, so the platform runs as it does there. */
const {
  launchPlatform,
  launchSidecar,
  launchBackend,
  freePort,
  isolatedPlatformEnv,
  waitForHealth,
} = require('../../scripts/platform-launcher.js');

const HEALTH_TIMEOUT_MS = 60_000;

/**
 * Starts control plane, sidecar and backend on free ports with a fresh data directory (SQLite),
 * or on `DATABASE_URL` when it is set (in `env`, else the harness's own), and times each from
 * spawn to healthy. The output of the processes goes to `<dataDir>/platform.log`. The harness's
 * cleanup (processes.mjs) stops the processes and then removes `dataDir`, unless it was asked to
 * keep the logs. `env` adds to or overrides the processes' environment.
 */
export async function startPlatform({ cpuProfDir, env: extraEnv } = {}) {
  assertRunning();
  const dataDir = mkdtempSync(join(tmpdir(), 'oauth-platform-bench-'));
  // Registered first, so it runs last: after every process that writes there has stopped.
  onCleanup(() => {
    if (keepsLogs()) console.error(`process logs kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  });
  const isolated = await isolatedPlatformEnv(dataDir);
  const { baseUrl, admin } = isolated;
  const env = {
    ...isolated.env,
    // As in the end-to-end suite: production also demands an external identity provider, which
    // no measured route uses; nothing on the measured paths reads NODE_ENV.
    LOG_FORMAT: 'json',
    ...(cpuProfDir && profilingEnv(cpuProfDir)),
    ...extraEnv,
  };
  const log = openSync(join(dataDir, 'platform.log'), 'a');

  // Each health endpoint is polled from the start; with the process's start time from /proc,
  // that gives each one's own time from spawn to healthy.
  const healthUrls = {
    'control-plane': `${env.CONTROL_PLANE_URL}/health`,
    sidecar: `http://127.0.0.1:${env.SIDECAR_HEALTH_PORT}/health`,
    backend: `${baseUrl}/health`,
  };
  const healthyAt = {};
  const watching = Object.entries(healthUrls).map(([name, url]) =>
    pollHealthy(url, HEALTH_TIMEOUT_MS).then((at) => (healthyAt[name] = at)),
  );

  const launching = launchPlatform({ env, stdio: log, timeoutMs: HEALTH_TIMEOUT_MS });
  // Registered before the launch settles, so a Ctrl+C during start-up still stops what started.
  onCleanup(async () => {
    const platform = await launching.catch(() => undefined);
    await platform?.stop();
  });
  let platform;
  try {
    platform = await launching;
  } catch (error) {
    throw new Error(`${error.message} (logs in ${dataDir}/platform.log)`, { cause: error });
  }
  for (const child of platform.children) track(child);
  await Promise.all(watching);
  assertRunning();

  const now = performance.now();
  const startup = platform.children.map((child) => ({
    process: child.name,
    healthyMs: Math.round(healthyAt[child.name] - (now - processAgeMs(child.pid))),
  }));

  return {
    baseUrl,
    env,
    dataDir,
    admin,
    sidecarAddress: env.SIDECAR_GRPC_ADDRESS,
    internalToken: env.INTERNAL_TOKEN,
    // The launcher passes the harness's environment on, under `env`: an unset DATABASE_URL in
    // `env` (SQLite in dataDir) overrides the harness's.
    database: ('DATABASE_URL' in env ? env.DATABASE_URL : process.env.DATABASE_URL)?.startsWith('postgres')
      ? 'postgres'
      : 'sqlite',
    startup,
    pids: Object.fromEntries(platform.children.map((child) => [child.name, child.pid])),
  };
}

/** A second sidecar with its own ports against the same control plane. */
export async function startExtraSidecar(platform, extraEnv = {}) {
  assertRunning();
  const [port, healthPort] = await Promise.all([freePort('::1'), freePort()]);
  const env = {
    ...platform.env,
    ...extraEnv,
    SIDECAR_GRPC_ADDRESS: `[::1]:${port}`,
    SIDECAR_HEALTH_PORT: String(healthPort),
  };
  mkdirSync(platform.dataDir, { recursive: true });
  const log = openSync(join(platform.dataDir, `sidecar-${port}.log`), 'a');
  const launching = launchSidecar({ env, stdio: log, timeoutMs: HEALTH_TIMEOUT_MS });
  onCleanup(async () => (await launching.catch(() => undefined))?.stop());
  const sidecar = await launching;
  const healthyAt = performance.now();
  track(sidecar.child);
  assertRunning();
  return {
    address: env.SIDECAR_GRPC_ADDRESS,
    pid: sidecar.child.pid,
    // The launcher polls every 100 ms: up to that much late.
    healthyMs: Math.round(processAgeMs(sidecar.child.pid) - (performance.now() - healthyAt)),
  };
}

/**
 * Another backend on its own port, beside `sidecar` (the platform's own, or one from
 * startExtraSidecar): a replica, or the same backend with other settings (`extraEnv`).
 */
export async function startExtraBackend(platform, sidecar, extraEnv = {}) {
  assertRunning();
  const [port, metricsPort] = await Promise.all([freePort(), freePort()]);
  const env = {
    ...platform.env,
    ...extraEnv,
    BACKEND_PORT: String(port),
    BACKEND_METRICS_PORT: String(metricsPort),
    SIDECAR_GRPC_ADDRESS: sidecar.address,
  };
  const log = openSync(join(platform.dataDir, `backend-${port}.log`), 'a');
  const launching = launchBackend({ env, stdio: log, timeoutMs: HEALTH_TIMEOUT_MS });
  onCleanup(async () => (await launching.catch(() => undefined))?.stop());
  const backend = await launching;
  const healthyAt = performance.now();
  track(backend.child);
  assertRunning();
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: backend.child.pid,
    healthyMs: Math.round(processAgeMs(backend.child.pid) - (performance.now() - healthyAt)),
  };
}

async function pollHealthy(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.ok) return performance.now();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return Number.NaN;
}

export { freePort, waitForHealth };
