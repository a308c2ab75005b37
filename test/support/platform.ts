import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The same launcher `npm start` uses, so the suite runs the platform as users do.
const launcher = require('../../scripts/platform-launcher.js') as {
  launchPlatform(options: object): Promise<{
    stop(): Promise<void>;
    stopProcess(name: string): Promise<void>;
    killProcess(name: string): Promise<void>;
    restartProcess(name: string): Promise<unknown>;
    identityProvider?: { issuer: string; clientId: string };
  }>;
  launchSidecar(options: object): Promise<{ stop(): Promise<void> }>;
  launchControlPlane(options: object): Promise<{ stop(): Promise<void> }>;
  launchBackend(options: object): Promise<{ stop(): Promise<void> }>;
  freePort(host?: string): Promise<number>;
  isolatedPlatformEnv(dataDir: string): Promise<{
    env: Record<string, string>;
    baseUrl: string;
    admin: { clientId: string; clientSecret: string };
  }>;
};

export interface TestPlatform {
  baseUrl: string;
  controlPlaneUrl: string;
  sidecarAddress: string;
  dataDir: string;
  internalToken: string;
  admin: { clientId: string; clientSecret: string };
  /** Environment the processes were started with; reused to start a second sidecar. */
  env: Record<string, string>;
  /** The development identity provider, when started (`withIdentityProvider`). */
  identityProvider?: { issuer: string; clientId: string };
  /** Stops one of the processes, leaving the others running. */
  stopProcess(name: 'backend' | 'control-plane' | 'sidecar' | 'identity-provider'): Promise<void>;
  /** SIGKILL: no shutdown hook runs, as in a crash. */
  killProcess(name: 'backend' | 'control-plane' | 'sidecar'): Promise<void>;
  /** Starts a stopped or killed process again with the same environment, once healthy. */
  restartProcess(name: 'backend' | 'control-plane' | 'sidecar'): Promise<void>;
  stop(): Promise<void>;
}

export interface PlatformOptions {
  databaseUrl?: string;
  env?: Record<string, string>;
  /**
   * Also start the development identity provider (scripts/dev-idp.mjs) at
   * `http://localhost:<port>` and point the backend at it. Off by default: most suites do not
   * sign anyone in.
   */
  withIdentityProvider?: boolean;
}

/**
 * Starts the three real processes on free ports with a fresh data directory. Their output
 * goes to `<dataDir>/platform.log` (kept when E2E_KEEP_DATA is set).
 */
export async function startPlatform(options: PlatformOptions = {}): Promise<TestPlatform> {
  const dataDir = mkdtempSync(join(tmpdir(), 'oauth-platform-e2e-'));
  const [isolated, idpPort] = await Promise.all([launcher.isolatedPlatformEnv(dataDir), launcher.freePort()]);
  const { baseUrl, admin } = isolated;
  const env: Record<string, string> = {
    ...isolated.env,
    // The test seam (never in production): `createSession` opens sessions from claims, so the
    // suites need no browser for every user they sign in. Real logins still verify the ID token.
    TEST_SESSIONS_FROM_CLAIMS: 'true',
    // The other seam: each success body the backend sends is checked against the API document;
    // `stop` fails the file when one did not match (issue 38: the document is true).
    TEST_ANSWER_CHECK_FILE: join(dataDir, ANSWER_MISFITS),
    ...(options.databaseUrl && { DATABASE_URL: options.databaseUrl }),
    // Another host name than the backend's, so the two never share cookies.
    ...(options.withIdentityProvider && {
      DEV_IDP_PORT: String(idpPort),
      DEV_IDP_ISSUER: `http://localhost:${idpPort}`,
    }),
    ...options.env,
  };
  const logFile = join(dataDir, 'platform.log');
  const platform = await launcher
    .launchPlatform({
      env,
      stdio: openSync(logFile, 'a'),
      timeoutMs: 60_000,
      identityProvider: options.withIdentityProvider ?? false,
    })
    .catch((error: Error) => {
      // The processes' own words on why they did not start: the data directory goes with the run.
      error.message += `\n--- the end of ${logFile} ---\n${logTail(logFile)}`;
      throw error;
    });
  return {
    baseUrl,
    controlPlaneUrl: env.CONTROL_PLANE_URL,
    sidecarAddress: env.SIDECAR_GRPC_ADDRESS,
    dataDir,
    internalToken: env.INTERNAL_TOKEN,
    admin,
    env,
    ...(platform.identityProvider && { identityProvider: platform.identityProvider }),
    stopProcess: (name) => platform.stopProcess(name),
    killProcess: (name) => platform.killProcess(name),
    restartProcess: async (name) => {
      await platform.restartProcess(name);
    },
    stop: async () => {
      await platform.stop();
      const misfits = answerMisfits(dataDir);
      if (!process.env.E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
      if (misfits !== '') throw new Error(`answers that do not match the API document:\n${misfits}`);
    },
  };
}

const ANSWER_MISFITS = 'answer-misfits.jsonl';

/** The last lines the processes wrote. */
function logTail(file: string, lines = 30): string {
  return existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') : '';
}

/** What the backend wrote of the answers that did not match their documented schema, if any. */
function answerMisfits(dataDir: string): string {
  const file = join(dataDir, ANSWER_MISFITS);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
}

/** Names the file holding the shared platform's descriptor (set by test/support/shared-platform-setup.ts). */
const SHARED_PLATFORM_VARIABLE = 'E2E_SHARED_PLATFORM';

type PlatformDescriptor = Omit<
  TestPlatform,
  'identityProvider' | 'stopProcess' | 'killProcess' | 'restartProcess' | 'stop'
>;

/**
 * Starts the platform the e2e files share (jest's e2e globalSetup), and names its descriptor for
 * the workers. Returns the stop for the globalTeardown.
 */
export async function startSharedPlatform(): Promise<() => Promise<void>> {
  const platform = await startPlatform();
  const { baseUrl, controlPlaneUrl, sidecarAddress, dataDir, internalToken, admin, env } = platform;
  const descriptor: PlatformDescriptor = {
    baseUrl,
    controlPlaneUrl,
    sidecarAddress,
    dataDir,
    internalToken,
    admin,
    env,
  };
  const file = join(dataDir, 'shared-platform.json');
  writeFileSync(file, JSON.stringify(descriptor), { mode: 0o600 });
  process.env[SHARED_PLATFORM_VARIABLE] = file;
  return () => platform.stop();
}

/**
 * The one platform the e2e files share, started once per jest run. Only for files whose tests
 * do not depend on other files' data (docs/code-organisation.md, Tests): their own apps, users
 * and tenants, no global counts or listings, no process control. `stop` is a no-op (the
 * globalTeardown stops it).
 */
export function sharedPlatform(): TestPlatform {
  const file = process.env[SHARED_PLATFORM_VARIABLE];
  if (!file)
    throw new Error(
      `${SHARED_PLATFORM_VARIABLE} is not set: run the e2e project, whose globalSetup starts it`,
    );
  const descriptor = JSON.parse(readFileSync(file, 'utf8')) as PlatformDescriptor;
  const refuse = (): never => {
    throw new Error('the shared platform is not for process control: use startPlatform()');
  };
  return {
    ...descriptor,
    stopProcess: refuse,
    killProcess: refuse,
    restartProcess: refuse,
    stop: async () => {},
  };
}

/** A second sidecar beside the first, following the same control plane. */
export async function startExtraSidecar(
  platform: TestPlatform,
  extraEnv: Record<string, string> = {},
): Promise<{ address: string; log: string; stop(): Promise<void> }> {
  const [port, healthPort] = await Promise.all([launcher.freePort('::1'), launcher.freePort()]);
  const env = {
    ...platform.env,
    ...extraEnv,
    SIDECAR_GRPC_ADDRESS: `[::1]:${port}`,
    SIDECAR_HEALTH_PORT: String(healthPort),
  };
  const logFile = join(platform.dataDir, `sidecar-${port}.log`);
  const sidecar = await launcher.launchSidecar({ env, stdio: openSync(logFile, 'a') });
  return { address: env.SIDECAR_GRPC_ADDRESS, log: logFile, stop: sidecar.stop };
}

/** A second control plane (a replica) on its own port, sharing the first one's database. */
export async function startControlPlaneReplica(
  platform: TestPlatform,
  extraEnv: Record<string, string> = {},
): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await launcher.freePort();
  const env = {
    ...platform.env,
    ...extraEnv,
    CONTROL_PLANE_PORT: String(port),
    CONTROL_PLANE_URL: `http://127.0.0.1:${port}`,
  };
  const log = openSync(join(platform.dataDir, `control-plane-${port}.log`), 'a');
  const replica = await launcher.launchControlPlane({ env, stdio: log });
  return { url: env.CONTROL_PLANE_URL, stop: replica.stop };
}

/** A second backend with its own sidecar (a replica of the edge), on the same control plane. */
export async function startBackendReplica(
  platform: TestPlatform,
  extraEnv: Record<string, string> = {},
): Promise<{
  baseUrl: string;
  metricsUrl: string;
  sidecarAddress: string;
  /** SIGTERM to the backend, and back on the same port once healthy; its sidecar stays. */
  restartBackend(): Promise<void>;
  stop(): Promise<void>;
}> {
  const sidecar = await startExtraSidecar(platform, extraEnv);
  const [port, metricsPort] = await Promise.all([launcher.freePort(), launcher.freePort()]);
  const env = {
    ...platform.env,
    ...extraEnv,
    BACKEND_PORT: String(port),
    BACKEND_METRICS_PORT: String(metricsPort),
    SIDECAR_GRPC_ADDRESS: sidecar.address,
  };
  const log = openSync(join(platform.dataDir, `backend-${port}.log`), 'a');
  let backend = await launcher.launchBackend({ env, stdio: log });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    sidecarAddress: sidecar.address,
    restartBackend: async () => {
      await backend.stop();
      backend = await launcher.launchBackend({ env, stdio: log });
    },
    stop: async () => {
      await backend.stop();
      await sidecar.stop();
    },
  };
}
