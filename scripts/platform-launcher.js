'use strict';
/**
 * Starts the three processes (control plane, sidecar, backend) from their builds and waits
 * until each is healthy. Used by `npm start`, the end-to-end suite and the benchmarks, so all
 * three run the platform the same way.
 */
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { createServer } = require('node:net');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const MAIN = {
  'control-plane': join(ROOT, 'apps/control-plane/dist/main.js'),
  sidecar: join(ROOT, 'apps/sidecar/dist/main.js'),
  backend: join(ROOT, 'apps/backend/dist/main.js'),
  'identity-provider': join(ROOT, 'scripts/dev-idp.mjs'),
};

/** The ports this process handed out lately: two draws of one `Promise.all` must differ. */
const handedOut = new Set();
const REMEMBERED_PORTS = 200;

/**
 * A port nothing listens on, drawn below the kernel's ephemeral range (32768-60999 on Linux):
 * a port the kernel handed out (port 0) could be handed again to an outgoing connection before
 * the process that is to listen on it binds it, and under load it was (EADDRINUSE at start-up).
 * Each jest worker draws from its own slice of 20000-31999, so two workers starting platforms at
 * once never pick the same free port, and one process never hands out a recent port again.
 */
async function freePort(host = '127.0.0.1') {
  const worker = Number(process.env.JEST_WORKER_ID ?? 0) % 8;
  const sliceSize = 1_500;
  for (let attempt = 0; ; attempt++) {
    const port = 20_000 + worker * sliceSize + Math.floor(Math.random() * sliceSize);
    if (handedOut.has(port)) continue;
    try {
      await new Promise((resolve, reject) => {
        const server = createServer();
        server.unref();
        server.on('error', reject);
        server.listen(port, host, () => server.close(resolve));
      });
      handedOut.add(port);
      if (handedOut.size > REMEMBERED_PORTS) handedOut.delete(handedOut.values().next().value);
      return port;
    } catch (error) {
      if (error.code !== 'EADDRINUSE' || attempt >= 50) throw error;
    }
  }
}

/**
 * Environment for a platform of its own beside any other: free ports, a fresh internal token
 * and admin secret, NODE_ENV=test. Used by the end-to-end suite and the benchmarks.
 */
async function isolatedPlatformEnv(dataDir) {
  const { randomBytes } = require('node:crypto');
  const [backendPort, controlPlanePort, sidecarPort, sidecarHealthPort, metricsPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort('::1'),
    freePort(),
    freePort(),
  ]);
  const baseUrl = `http://127.0.0.1:${backendPort}`;
  const admin = { clientId: 'admin', clientSecret: randomBytes(24).toString('base64url') };
  const env = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    BACKEND_PORT: String(backendPort),
    BACKEND_METRICS_PORT: String(metricsPort),
    CONTROL_PLANE_PORT: String(controlPlanePort),
    CONTROL_PLANE_URL: `http://127.0.0.1:${controlPlanePort}`,
    SIDECAR_GRPC_ADDRESS: `[::1]:${sidecarPort}`,
    SIDECAR_HEALTH_PORT: String(sidecarHealthPort),
    ISSUER: baseUrl,
    INTERNAL_TOKEN: randomBytes(32).toString('base64url'),
    ADMIN_CLIENT_ID: admin.clientId,
    ADMIN_CLIENT_SECRET: admin.clientSecret,
  };
  return { env, baseUrl, admin };
}

async function waitForHealth(url, child, name, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${name} exited with code ${child.exitCode} before it was healthy`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = error.cause?.code ?? error.name;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} was not healthy at ${url} within ${timeoutMs} ms (${last})`);
}

/**
 * The development identity provider's settings, and the OIDC_* variables that point the
 * backend at it. Port DEV_IDP_PORT (3001), issuer DEV_IDP_ISSUER (http://localhost:<port>),
 * client OIDC_CLIENT_ID (platform-backend) with OIDC_CLIENT_SECRET (random when unset).
 */
function devIdentityProvider(env) {
  const port = Number(env.DEV_IDP_PORT ?? 3001);
  const issuer = env.DEV_IDP_ISSUER ?? `http://localhost:${port}`;
  return {
    issuer,
    healthUrl: `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
    env: {
      DEV_IDP_PORT: String(port),
      DEV_IDP_ISSUER: issuer,
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: env.OIDC_CLIENT_ID ?? 'platform-backend',
      OIDC_CLIENT_SECRET: env.OIDC_CLIENT_SECRET ?? randomBytes(24).toString('base64url'),
      // Its `platform` scope carries the tenant and roles claims.
      OIDC_SCOPES: env.OIDC_SCOPES ?? 'openid email profile platform',
    },
  };
}

/**
 * @param {object} options
 * @param {Record<string,string>} options.env  environment shared by the three processes
 * @param {'inherit'|'pipe'|'ignore'} [options.stdio]  where their output goes
 * @param {number} [options.timeoutMs]
 * @param {boolean} [options.identityProvider]  also start the development identity provider
 *   (scripts/dev-idp.mjs) first, and point the backend at it
 */
async function launchPlatform({
  env,
  stdio = 'inherit',
  timeoutMs = 60_000,
  onExit,
  identityProvider = false,
} = {}) {
  const children = [];
  const baseEnv = { ...process.env, ...env };
  const idp = identityProvider ? devIdentityProvider(baseEnv) : undefined;
  if (idp) Object.assign(baseEnv, idp.env);
  let stopping = false;

  const start = async (name, extraEnv, healthUrl) => {
    const child = spawn(process.execPath, [MAIN[name]], {
      env: { ...baseEnv, ...extraEnv },
      stdio: ['ignore', stdio, stdio],
    });
    child.name = name;
    children.push(child);
    child.on('exit', (code, signal) => {
      if (!stopping && !child.expectedExit && onExit) onExit(name, code, signal);
    });
    await waitForHealth(healthUrl, child, name, timeoutMs);
    return child;
  };

  const stop = async () => {
    stopping = true;
    await Promise.all(children.reverse().map(stopChild));
  };

  /** Stops one process on purpose (tests of what happens when it is gone). */
  const stopProcess = async (name) => {
    const child = children.find((c) => c.name === name && c.exitCode === null && c.signalCode === null);
    child.expectedExit = true;
    await stopChild(child);
  };

  /** Kills one process outright (SIGKILL, no shutdown hooks): the crash a durability test needs. */
  const killProcess = (name) =>
    new Promise((resolve) => {
      const child = children.find((c) => c.name === name && c.exitCode === null && c.signalCode === null);
      if (!child) return resolve();
      child.expectedExit = true;
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });

  const controlPlanePort = Number(baseEnv.CONTROL_PLANE_PORT ?? 8080);
  const backendPort = Number(baseEnv.BACKEND_PORT ?? 3000);
  const sidecarHealthPort = Number(baseEnv.SIDECAR_HEALTH_PORT ?? 9091);
  const healthUrls = {
    'control-plane': `http://127.0.0.1:${controlPlanePort}/health`,
    sidecar: `http://127.0.0.1:${sidecarHealthPort}/health`,
    backend: `http://127.0.0.1:${backendPort}/health`,
  };
  /** Starts a stopped or killed process again, with the same environment; resolves once healthy. */
  const restartProcess = (name) => start(name, {}, healthUrls[name]);
  try {
    if (idp) await start('identity-provider', {}, idp.healthUrl);
    await start('control-plane', {}, healthUrls['control-plane']);
    await start('sidecar', {}, healthUrls.sidecar);
    await start('backend', {}, healthUrls.backend);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    children,
    stop,
    stopProcess,
    killProcess,
    restartProcess,
    baseUrl: `http://127.0.0.1:${backendPort}`,
    ...(idp && { identityProvider: { issuer: idp.issuer, clientId: idp.env.OIDC_CLIENT_ID } }),
  };
}

/** SIGTERM, and SIGKILL for a process still there 5 s later. */
const stopChild = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });

/** Starts one more process of `name` beside a running platform; resolves once `healthUrl` answers. */
async function launchExtra(name, healthUrl, { env, stdio = 'inherit', timeoutMs = 30_000 }) {
  const child = spawn(process.execPath, [MAIN[name]], {
    env: { ...process.env, ...env },
    stdio: ['ignore', stdio, stdio],
  });
  await waitForHealth(healthUrl, child, name, timeoutMs);
  return { child, stop: () => stopChild(child) };
}

/** Starts one more sidecar (with its own ports) against an already running control plane. */
const launchSidecar = (options) =>
  launchExtra('sidecar', `http://127.0.0.1:${options.env.SIDECAR_HEALTH_PORT}/health`, options);

/** Starts one more control plane (a replica on its own port) against the same database. */
const launchControlPlane = (options) =>
  launchExtra('control-plane', `http://127.0.0.1:${options.env.CONTROL_PLANE_PORT}/health`, options);

/** Starts one more backend (a replica on its own port, with the sidecar `env` names). */
const launchBackend = (options) =>
  launchExtra('backend', `http://127.0.0.1:${options.env.BACKEND_PORT}/health`, options);

module.exports = {
  launchPlatform,
  launchSidecar,
  launchControlPlane,
  launchBackend,
  isolatedPlatformEnv,
  freePort,
  waitForHealth,
  stopChild,
  ROOT,
};
