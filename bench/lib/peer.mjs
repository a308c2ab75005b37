import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertRunning, onCleanup, track } from './processes.mjs';
import { profilingEnv } from './profiling.mjs';
import { waitForHealth } from './platform.mjs';

const PEER_MAIN = fileURLToPath(new URL('../peer/oidc-provider-peer.mjs', import.meta.url));
const STOP_GRACE_MS = 5_000;

/**
 * Starts node-oidc-provider (bench/peer/oidc-provider-peer.mjs) as its own process on `port`
 * and waits until its discovery document answers. Output goes to `<logDir>/peer.log`.
 */
export async function startPeer({ port, logDir, cpuProfDir }) {
  assertRunning();
  const issuer = `http://127.0.0.1:${port}`;
  const client = { clientId: 'bench-peer', clientSecret: randomBytes(24).toString('base64url') };
  const opaqueClientId = 'bench-peer-opaque';
  const log = openSync(join(logDir, 'peer.log'), 'a');
  const started = performance.now();
  const child = track(
    spawn(process.execPath, [PEER_MAIN], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PEER_PORT: String(port),
        PEER_CLIENT_ID: client.clientId,
        PEER_CLIENT_SECRET: client.clientSecret,
        PEER_OPAQUE_CLIENT_ID: opaqueClientId,
        ...(cpuProfDir && profilingEnv(cpuProfDir)),
      },
      stdio: ['ignore', log, log],
    }),
  );
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    });
  onCleanup(stop);
  await waitForHealth(`${issuer}/.well-known/openid-configuration`, child, 'oidc-provider peer', 30_000);
  assertRunning();
  return {
    issuer,
    tokenUrl: `${issuer}/token`,
    introspectionUrl: `${issuer}/token/introspection`,
    client,
    opaqueClient: { clientId: opaqueClientId, clientSecret: client.clientSecret },
    pid: child.pid,
    healthyMs: Math.round(performance.now() - started),
  };
}
