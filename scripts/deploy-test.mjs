#!/usr/bin/env node
// npm run test:deploy: the compose stack brought up for real and checked from outside, as a user
// would (docs/operations.md, "Deployment test").
//
// Podman (runc, cgroupfs: deploy/podman/containers.conf) stands in for Docker. Where no image
// registry is reachable, the base images the files name (node:20-bookworm-slim, postgres:16,
// redis:7) are built here from Debian's packages and this machine's Node and kept in podman's
// storage for the next run; the platform's images are built from deploy/Dockerfile as it is, and
// docker-compose.yml runs as it is, with docker-compose.dev-idp.yml putting the development
// identity provider in Dex's place. Installs nothing: it says what is missing.
//
//   npm run test:deploy                 build what is missing, up, check, down -v
//   npm run test:deploy -- --keep       leave the stack running at the end (down -v it yourself)
//   npm run test:deploy -- --cold       first remove every image this test built (a cold run)
//   npm run test:deploy -- --kube       then the Kubernetes profile (deploy/overlays/dev) under
//                                       `podman kube play`, as far as podman stands in for a cluster
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PODMAN_DIR = join(ROOT, 'deploy', 'podman');
/** Not the compose file's own name: `down -v` here must never touch a stack someone runs. */
const PROJECT = 'oauth-platform-deploy-test';
const COMPOSE_FILES = ['docker-compose.yml', 'docker-compose.dev-idp.yml'];
const BASE = 'http://127.0.0.1:3000';
const IDP = 'http://127.0.0.1:5556';
const CACHE_LABEL = 'io.oauth-platform.deploy-test.inputs';
const MINBASE = 'localhost/debian-bookworm-minbase:local';
const args = new Set(process.argv.slice(2));
const KEEP = args.has('--keep');
const COLD = args.has('--cold');
const KUBE = args.has('--kube');

const t0 = Date.now();
const logDir = mkdtempSync(join(tmpdir(), 'deploy-test-'));
const LOG = join(logDir, 'commands.log');
/** Every secret this run makes: never printed, scrubbed from the command log. */
const secrets = [];
const redact = (text) => secrets.reduce((out, secret) => out.split(secret).join('***'), String(text));

class Failure extends Error {}
const elapsed = (since = t0) => ((Date.now() - since) / 1000).toFixed(1);
const say = (line) => console.log(`deploy-test [${elapsed().padStart(6)} s] ${line}`);

async function step(name, fn) {
  const since = Date.now();
  say(`… ${name}`);
  const detail = await fn();
  say(`✓ ${name}${detail ? `: ${detail}` : ''} (${elapsed(since)} s)`);
}

/** Runs a command; its output goes to the log, and on failure into the message (scrubbed). */
function run(command, argv, { env, cwd = ROOT, allowFail = false, timeoutMs = 20 * 60_000, input } = {}) {
  return new Promise((resolvePromise, reject) => {
    appendFileSync(LOG, redact(`\n$ ${command} ${argv.join(' ')}\n`), { mode: 0o600 });
    const child = spawn(command, argv, {
      cwd,
      env: { ...process.env, ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let out = '';
    const take = (chunk) => {
      out += chunk;
      appendFileSync(LOG, redact(chunk));
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    if (input !== undefined) input.pipe(child.stdin);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Failure(`${command} could not be started: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0 || allowFail) return resolvePromise({ code, out });
      const tail = redact(out).trim().split('\n').slice(-15).join('\n  ');
      reject(
        new Failure(
          `${command} ${argv.slice(0, 3).join(' ')} … ${signal ? `was killed (${signal})` : `exited ${code}`}\n  ${tail}`,
        ),
      );
    });
  });
}

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const sha = (...parts) => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32);

const PODMAN_ENV = { CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? join(PODMAN_DIR, 'containers.conf') };
const podman = (argv, options = {}) =>
  run('podman', argv, { ...options, env: { ...PODMAN_ENV, ...options.env } });

// ---------------------------------------------------------------------------------------------
// Preflight: the tools, installed by the machine's owner (or CI), never here.

let composeCommand;
async function preflight() {
  const missing = ['podman', 'podman-compose', 'debootstrap', ...(KUBE ? ['kubectl'] : [])].filter(
    (c) => !has(c),
  );
  if (!existsSync('/usr/sbin/runc') && !has('runc')) missing.push('runc');
  if (missing.length > 0)
    throw new Failure(
      `missing: ${missing.join(', ')}. Install them (Debian): apt-get install podman runc podman-compose debootstrap`,
    );
  if (process.getuid?.() !== 0)
    throw new Failure(
      'run as root: debootstrap and podman with runc and cgroupfs (deploy/podman/containers.conf)',
    );
  await podman(['info', '--format', '{{.Host.OCIRuntime.Name}}']);
  const version = (await run('podman-compose', ['version'], { env: PODMAN_ENV, allowFail: true })).out;
  const found = /podman-composer? version\s+(\d+)\.(\d+)\.(\d+)/.exec(version);
  const old = found && Number(found[1]) === 1 && Number(found[2]) === 0 && Number(found[3]) < 4;
  // Debian bookworm's 1.0.3 knows no `network_mode: service:` (deploy/podman/podman-compose-compat.py).
  composeCommand = old
    ? ['/usr/bin/python3', join(PODMAN_DIR, 'podman-compose-compat.py')]
    : ['podman-compose'];
  for (const port of [3000, 5556]) {
    const free = await new Promise((r) => {
      const server = createServer().once('error', () => r(false));
      server.listen(port, '127.0.0.1', () => server.close(() => r(true)));
    });
    if (!free)
      throw new Failure(`127.0.0.1:${port} is in use: the stack publishes it (stop what listens there)`);
  }
  return `podman-compose ${found ? found.slice(1).join('.') : '?'}${old ? ' (with deploy/podman/podman-compose-compat.py)' : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Base images: built here only when the name is absent or was built by an earlier run from other
// inputs. An image of that name that this test did not build (a registry's) is used as it is.

async function imageLabel(name) {
  const { code, out } = await podman(
    ['image', 'inspect', '--format', `{{index .Config.Labels "${CACHE_LABEL}"}}`, name],
    {
      allowFail: true,
    },
  );
  if (code !== 0) return undefined;
  return out.trim() === '<no value>' ? '' : out.trim();
}
const imageId = async (name) => (await podman(['image', 'inspect', '--format', '{{.Id}}', name])).out.trim();

async function baseImage(name, inputs, build) {
  const label = await imageLabel(name);
  if (label === '') return `${name} present, not built by this test: used as it is`;
  if (label === inputs) return `${name} cached`;
  await build();
  return `${name} built`;
}

function debianMirror() {
  const sources = '/etc/apt/sources.list.d/debian.sources';
  const text = existsSync(sources) ? readFileSync(sources, 'utf8') : '';
  const uri = /^URIs:\s*(\S+)/m.exec(text)?.[1];
  return process.env.DEPLOY_TEST_DEBIAN_MIRROR ?? uri ?? 'http://deb.debian.org/debian';
}

/** What the official debian image sets (an import has no PATH of its own). */
const IMPORT_CHANGES = [
  'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  'CMD ["bash"]',
];

async function buildMinbase() {
  const mirror = debianMirror();
  const inputs = sha('bookworm', 'minbase', mirror, ...IMPORT_CHANGES);
  return baseImage(MINBASE, inputs, async () => {
    const dir = mkdtempSync(join('/var/tmp', 'deploy-test-rootfs-'));
    try {
      await run('debootstrap', ['--variant=minbase', 'bookworm', dir, mirror]);
      rmSync(join(dir, 'var/cache/apt/archives'), { recursive: true, force: true });
      mkdirSync(join(dir, 'var/cache/apt/archives/partial'), { recursive: true });
      const tar = spawn('tar', ['-C', dir, '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
      await podman(
        [
          'import',
          ...IMPORT_CHANGES.flatMap((c) => ['--change', c]),
          '--change',
          `LABEL ${CACHE_LABEL}=${inputs}`,
          '-',
          MINBASE,
        ],
        {
          input: tar.stdout,
        },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** The CA bundle of a TLS-intercepting proxy to the npm registry, when this machine has one. */
function proxyCa() {
  const configured = process.env.NODE_EXTRA_CA_CERTS;
  if (configured && existsSync(configured)) return configured;
  const npm = spawnSync('npm', ['config', 'get', 'cafile'], { encoding: 'utf8' }).stdout?.trim();
  return npm && npm !== 'null' && npm !== 'undefined' && existsSync(npm) ? npm : undefined;
}
const CA_IN_BUILD = '/etc/ssl/certs/ca-certificates.crt';
function buildFlags() {
  const ca = proxyCa();
  return ca
    ? ['--volume', `${ca}:${CA_IN_BUILD}:ro`, '--build-arg', `NODE_EXTRA_CA_CERTS=${CA_IN_BUILD}`]
    : [];
}

async function buildNode() {
  const name = 'docker.io/library/node:20-bookworm-slim';
  if (!process.versions.node.startsWith('20.'))
    throw new Failure(
      `the node:20-bookworm-slim look-alike copies this machine's Node, which is ${process.version}, not 20`,
    );
  const nodedir =
    spawnSync('npm', ['config', 'get', 'nodedir'], { encoding: 'utf8' }).stdout?.trim() || '/usr';
  const headers = join(nodedir, 'include', 'node');
  const npmDir = resolve(
    dirname(spawnSync('sh', ['-c', 'readlink -f "$(command -v npm)"'], { encoding: 'utf8' }).stdout.trim()),
    '..',
  );
  if (!existsSync(join(headers, 'node_api.h')))
    throw new Failure(
      `Node's headers are not at ${headers} (npm config get nodedir): native addons need them`,
    );
  const containerfile = join(PODMAN_DIR, 'node.Containerfile');
  const npmVersion = JSON.parse(readFileSync(join(npmDir, 'package.json'), 'utf8')).version;
  const inputs = sha(
    readFileSync(containerfile, 'utf8'),
    process.version,
    npmVersion,
    await imageId(MINBASE),
  );
  return baseImage(name, inputs, async () => {
    const context = mkdtempSync(join('/var/tmp', 'deploy-test-node-'));
    try {
      cpSync(process.execPath, join(context, 'node'));
      cpSync(npmDir, join(context, 'npm'), { recursive: true });
      cpSync(headers, join(context, 'include', 'node'), { recursive: true });
      await podman([
        'build',
        '--pull=never',
        '--label',
        `${CACHE_LABEL}=${inputs}`,
        '-f',
        containerfile,
        '-t',
        name,
        context,
      ]);
    } finally {
      rmSync(context, { recursive: true, force: true });
    }
  });
}

async function buildFromDebian(name, containerfile, extra = []) {
  const files = [containerfile, ...extra].map((f) => readFileSync(join(PODMAN_DIR, f), 'utf8'));
  const inputs = sha(...files, await imageId(MINBASE));
  return baseImage(name, inputs, () =>
    podman([
      'build',
      '--pull=never',
      '--label',
      `${CACHE_LABEL}=${inputs}`,
      '-f',
      join(PODMAN_DIR, containerfile),
      '-t',
      name,
      PODMAN_DIR,
    ]),
  );
}

// ---------------------------------------------------------------------------------------------
// The platform's images, from the compose files' `build` sections, under the names podman-compose
// gives them (`<project>_<service>`, or the service's `image`).

async function composeBuilds() {
  let YAML;
  try {
    YAML = await import('yaml');
  } catch {
    throw new Failure('the `yaml` package is missing: run npm ci first');
  }
  const services = {};
  for (const file of COMPOSE_FILES) {
    const doc = YAML.parse(readFileSync(join(ROOT, file), 'utf8'));
    for (const [name, service] of Object.entries(doc.services ?? {})) {
      services[name] = { ...services[name], ...service };
    }
  }
  return Object.entries(services)
    .filter(([, s]) => s.build)
    .map(([name, s]) => ({
      service: name,
      image: s.image ?? `${PROJECT}_${name}`,
      context: resolve(ROOT, s.build.context ?? '.'),
      dockerfile: resolve(ROOT, s.build.context ?? '.', s.build.dockerfile ?? 'Dockerfile'),
      args: s.build.args ?? {},
    }));
}

function lockedVersion(name) {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  return lock.packages?.[`node_modules/${name}`]?.version;
}

async function buildPlatform() {
  const lines = [];
  for (const build of await composeBuilds()) {
    const since = Date.now();
    const argv = [
      'build',
      '--pull=never',
      '--layers',
      // Docker's image format: OCI's has no HEALTHCHECK, and podman would drop the image's.
      '--format',
      'docker',
      ...buildFlags(),
      '-f',
      build.dockerfile,
      '-t',
      build.image,
    ];
    for (const [key, value] of Object.entries(build.args)) argv.push('--build-arg', `${key}=${value}`);
    if (build.dockerfile.endsWith('dev-idp.Containerfile'))
      argv.push('--build-arg', `OIDC_PROVIDER_VERSION=${lockedVersion('oidc-provider') ?? '8'}`);
    await podman([...argv, build.context]);
    say(`  ${build.service}: ${build.image} built (${elapsed(since)} s)`);
    lines.push(build.service);
  }
  return lines.join(', ');
}

// ---------------------------------------------------------------------------------------------
// The stack.

const SECRETS_ENV = (() => {
  const make = (bytes, encoding) => randomBytes(bytes).toString(encoding);
  const env = {
    INTERNAL_TOKEN: make(32, 'base64url'),
    SESSION_SECRET: make(32, 'base64url'),
    ADMIN_CLIENT_SECRET: make(24, 'base64url'),
    SECRETS_KEK: make(32, 'base64'),
    POSTGRES_PASSWORD: make(18, 'base64url'),
  };
  secrets.push(...Object.values(env));
  return env;
})();

const compose = (argv, options = {}) =>
  run(
    composeCommand[0],
    [...composeCommand.slice(1), '-p', PROJECT, ...COMPOSE_FILES.flatMap((f) => ['-f', f]), ...argv],
    {
      ...options,
      env: { ...PODMAN_ENV, ...SECRETS_ENV, ...options.env },
    },
  );
const container = (service) => `${PROJECT}_${service}_1`;

async function inspect(service, format) {
  const { code, out } = await podman(['inspect', '--format', format, container(service)], {
    allowFail: true,
  });
  return code === 0 ? out.trim() : undefined;
}

/** Each service's own health check (the compose file's or the image's), run until it passes. */
async function healthy(services, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(services);
  while (pending.size > 0) {
    for (const service of [...pending]) {
      const state = await inspect(service, '{{.State.Status}}');
      if (
        state === 'running' &&
        (await podman(['healthcheck', 'run', container(service)], { allowFail: true })).code === 0
      )
        pending.delete(service);
    }
    if (pending.size === 0) break;
    if (Date.now() > deadline)
      throw new Failure(`not healthy after ${timeoutMs / 1000} s: ${[...pending].join(', ')}`);
    await sleep(1000);
  }
}

/** Where the checks go: the compose stack's published port, or the backend pod's address. */
let target = BASE;

async function http(method, path, { base = target, basic, bearer, form, json, redirect = 'manual' } = {}) {
  const headers = {};
  if (basic) headers.authorization = `Basic ${Buffer.from(`${basic[0]}:${basic[1]}`).toString('base64')}`;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  let body;
  if (form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(form).toString();
  }
  if (json) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  }
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      body,
      redirect,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    let data;
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
    return { status: response.status, data, headers: response.headers };
  } catch (error) {
    return { status: 0, data: String(error.cause?.code ?? error.message), headers: new Headers() };
  }
}

function expectStatus(what, response, status) {
  if (response.status !== status)
    throw new Failure(
      `${what}: expected ${status}, got ${response.status} ${redact(JSON.stringify(response.data)).slice(0, 300)}`,
    );
  return response.data;
}

/** Retries `check` (which throws a Failure) until it passes or the time is up. */
async function eventually(check, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (!(error instanceof Failure) || Date.now() > deadline) throw error;
      await sleep(500);
    }
  }
}

const adminToken = async () =>
  expectStatus(
    'admin token (client_credentials, admin)',
    await http('POST', '/v1/oauth/token', {
      basic: ['admin', SECRETS_ENV.ADMIN_CLIENT_SECRET],
      form: { grant_type: 'client_credentials' },
    }),
    200,
  ).access_token;

const appToken = async (app) =>
  expectStatus(
    `token for ${app.client_id}`,
    await http('POST', '/v1/oauth/token', {
      form: {
        grant_type: 'client_credentials',
        client_id: app.client_id,
        client_secret: app.client_secret,
        scope: 'jobs.read',
      },
    }),
    200,
  ).access_token;

const SERVICES_CHECKED = ['postgres', 'redis', 'control-plane', 'backend', 'sidecar'];

async function up() {
  await compose(['up', '-d', '--no-build']);
  await healthy(SERVICES_CHECKED);
  // From outside: the backend's probes, and the identity provider in Dex's place.
  await eventually(async () => expectStatus('GET /readyz', await http('GET', '/readyz'), 200));
  expectStatus('GET /livez', await http('GET', '/livez'), 200);
  const discovery = expectStatus(
    'identity provider discovery',
    await http('GET', '/.well-known/openid-configuration', { base: IDP }),
    200,
  );
  if (discovery.issuer !== 'http://localhost:5556')
    throw new Failure(`identity provider: issuer ${discovery.issuer}, expected http://localhost:5556`);
}

/**
 * A person signs in at the backend through the identity provider in Dex's place, as a browser
 * would: /auth/login, the provider's login form (alice@acme.example / demo), back to the
 * backend's callback, which exchanges the code (backend to http://localhost:5556 in its pod),
 * has the control plane verify the ID token (keys at http://backend:5556/jwks) and opens a
 * session. Cookies are kept by name (one host, localhost).
 */
async function browserLogin() {
  const jar = new Map();
  const local = (url) => url.replace(/^http:\/\/localhost:/, 'http://127.0.0.1:');
  let url = `${BASE}/auth/login`;
  let init = { method: 'GET' };
  for (let hop = 0; hop < 12; hop++) {
    const response = await fetch(local(url), {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      signal: AbortSignal.timeout(10_000),
    }).catch((error) => {
      throw new Failure(`sign-in: ${url}: ${error.cause?.code ?? error.message}`);
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at).trim(), pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (new URL(local(url)).pathname === '/auth/oidc/callback') {
      if (response.status !== 302 || !jar.has('session'))
        throw new Failure(`sign-in: the backend's callback answered ${response.status} without a session`);
      return `alice@acme.example signed in, session opened, sent on to ${location}`;
    }
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url).href;
      init = { method: 'GET' };
      continue;
    }
    const html = await response.text();
    const action = /action="(\/interaction\/[^"]+\/login)"/.exec(html)?.[1];
    if (response.status !== 200 || !action)
      throw new Failure(
        `sign-in: ${new URL(url).pathname} answered ${response.status} without the login form`,
      );
    url = new URL(action, url).href;
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ login: 'alice@acme.example', password: 'demo' }).toString(),
    };
  }
  throw new Failure('sign-in: too many redirects');
}

const app = {};
let revoked;

async function lifecycle() {
  app.client_id = `deploy-test-${randomBytes(4).toString('hex')}`;
  const admin = await adminToken();
  const created = expectStatus(
    'app registration',
    await http('POST', '/v1/oauth/apps', {
      bearer: admin,
      json: {
        client_id: app.client_id,
        name: 'Deployment test',
        declared_scopes: ['jobs.read'],
        app_type: 'service',
      },
    }),
    201,
  );
  app.client_secret = created.client_secret;
  secrets.push(app.client_secret);
  const token = await appToken(app);
  const me = expectStatus('GET /v1/me with the token', await http('GET', '/v1/me', { bearer: token }), 200);
  expectStatus(
    'revocation',
    await http('POST', '/v1/oauth/revoke', { basic: [app.client_id, app.client_secret], form: { token } }),
    200,
  );
  const since = Date.now();
  await eventually(async () =>
    expectStatus('GET /v1/me with the revoked token', await http('GET', '/v1/me', { bearer: token }), 401),
  );
  revoked = token;
  return `app ${app.client_id}, /v1/me ${JSON.stringify(me).slice(0, 60)}…, refused ${elapsed(since)} s after revocation`;
}

async function restartKeepsData() {
  await compose(['down']);
  await up();
  const admin = await adminToken();
  expectStatus(
    `GET /v1/oauth/apps/${app.client_id} after down/up`,
    await http('GET', `/v1/oauth/apps/${app.client_id}`, { bearer: admin }),
    200,
  );
  const token = await appToken(app);
  expectStatus('GET /v1/me with a token after down/up', await http('GET', '/v1/me', { bearer: token }), 200);
  expectStatus(
    'GET /v1/me with the token revoked before',
    await http('GET', '/v1/me', { bearer: revoked }),
    401,
  );
  return 'the app, its secret, the signing keys and the revocation survived';
}

async function killAndRecover(service) {
  const before = Number(await inspect(service, '{{.RestartCount}}'));
  const pid = await inspect(service, '{{.State.Pid}}');
  // kill -9 of the container's process, as a crash or the kernel's OOM killer would: not
  // `podman kill`, which (like `docker kill`) counts as stopped by the user, whom
  // `restart: unless-stopped` obeys.
  try {
    process.kill(Number(pid), 'SIGKILL');
  } catch (error) {
    throw new Failure(`kill -9 ${pid} (${service}): ${error.message}`);
  }
  const since = Date.now();
  await eventually(async () => {
    const [count, status, now] = [
      Number(await inspect(service, '{{.RestartCount}}')),
      await inspect(service, '{{.State.Status}}'),
      await inspect(service, '{{.State.Pid}}'),
    ];
    if (!(count > before && status === 'running' && now !== pid))
      throw new Failure(
        `${service} was not restarted by its restart policy (status ${status}, restarts ${count})`,
      );
  }, 60_000);
  const restarted = elapsed(since);
  await healthy([service]);
  await eventually(async () => expectStatus('GET /readyz', await http('GET', '/readyz'), 200), 60_000);
  const ready = elapsed(since);
  // Recovered: a token issued and validated again. Not at once after /readyz: the backend's
  // gRPC channel to a restarted sidecar reconnects after its backoff (503 until then).
  const token = await eventually(() => appToken(app), 60_000);
  await eventually(
    async () =>
      expectStatus('GET /v1/me after the restart', await http('GET', '/v1/me', { bearer: token }), 200),
    60_000,
  );
  return `restarted after ${restarted} s, /readyz 200 after ${ready} s, tokens issued and validated again ${elapsed(since)} s after the kill`;
}

// eslint-disable-next-line no-control-regex -- the terminal colours of the services' own logs
const ANSI_COLOURS = /\x1b\[[0-9;]*m/g;

async function diagnose() {
  try {
    const { out } = await podman(
      [
        'ps',
        '-a',
        '--filter',
        `label=io.podman.compose.project=${PROJECT}`,
        '--format',
        '{{.Names}}  {{.Status}}',
      ],
      {
        allowFail: true,
      },
    );
    if (out.trim()) console.error(`deploy-test: containers:\n  ${out.trim().split('\n').join('\n  ')}`);
    for (const service of SERVICES_CHECKED) {
      const logs = await podman(['logs', '--tail', '15', container(service)], { allowFail: true });
      if (logs.code === 0 && logs.out.trim())
        console.error(
          `deploy-test: last lines of ${service}:\n  ${redact(logs.out)
            .replace(ANSI_COLOURS, '')
            .trim()
            .split('\n')
            .join('\n  ')}`,
        );
    }
  } catch {
    // Diagnosis is best effort.
  }
}

async function cleanup() {
  const since = Date.now();
  if (KUBE) await kubeDown();
  await compose(['down', '-v'], { allowFail: true });
  const volumes = (await podman(['volume', 'ls', '--format', '{{.Name}}'], { allowFail: true })).out
    .split('\n')
    .filter((v) => v.startsWith(`${PROJECT}_`));
  for (const volume of volumes) await podman(['volume', 'rm', '-f', volume], { allowFail: true });
  await podman(['network', 'rm', '-f', `${PROJECT}_default`], { allowFail: true });
  say(`✓ down -v: containers, volume and network removed (${elapsed(since)} s)`);
}

async function removeBuiltImages() {
  const { out } = await podman(
    ['images', '--filter', `label=${CACHE_LABEL}`, '--format', '{{.Repository}}:{{.Tag}}'],
    {
      allowFail: true,
    },
  );
  const names = [...out.trim().split('\n').filter(Boolean), ...(await composeBuilds()).map((b) => b.image)];
  for (const name of names) await podman(['rmi', '-f', name], { allowFail: true });
  await podman(['image', 'prune', '-f'], { allowFail: true });
  return `${names.length} images removed`;
}

// ---------------------------------------------------------------------------------------------
// Kubernetes, as far as podman stands in: `podman kube play` runs the development profile's
// Deployments as pods (the backend pod: backend + sidecar sharing the pod's loopback; the control
// plane; Redis). Podman has no Services, NetworkPolicies or disruption budgets: the pods reach
// each other by pod name on one podman network (the ConfigMap's two addresses rewritten for it),
// the Services and policies are left out (libs/config/test/deployment.medium-spec.ts checks them
// against the schemas). The database is external in the manifests: a postgres container here.

const KUBE_NET = `${PROJECT}-kube`;
const KUBE_DB = `${PROJECT}-kube-postgres`;
const KUBE_IMAGE = 'localhost/oauth-platform:0.9.0';
let kubeFile;
let kubeProbes = [];

async function kubeManifests() {
  const YAML = await import('yaml');
  const { out } = await run('kubectl', ['kustomize', join(ROOT, 'deploy', 'overlays', 'dev')]);
  const objects = YAML.parseAllDocuments(out).map((d) => d.toJS());
  const kept = objects.filter((o) => ['ConfigMap', 'Deployment'].includes(o.kind));
  const configMap = kept.find((o) => o.kind === 'ConfigMap');
  configMap.data.CONTROL_PLANE_URL = 'http://control-plane-pod-0:8080';
  configMap.data.RATE_LIMIT_REDIS_URL = 'redis://redis-pod-0:6379';
  // The `oauth-platform` Secret: podman 4.3 stores a Secret of the file as YAML and then fails to
  // read it as JSON for `envFrom`, so this copy gives its values to the containers directly.
  const secret = {
    INTERNAL_TOKEN: SECRETS_ENV.INTERNAL_TOKEN,
    SESSION_SECRET: SECRETS_ENV.SESSION_SECRET,
    ADMIN_CLIENT_SECRET: SECRETS_ENV.ADMIN_CLIENT_SECRET,
    SECRETS_KEK: SECRETS_ENV.SECRETS_KEK,
    DATABASE_URL: `postgres://platform:${SECRETS_ENV.POSTGRES_PASSWORD}@${KUBE_DB}:5432/platform`,
    OIDC_CLIENT_SECRET: 'development-only-client-secret',
  };
  kubeProbes = [];
  for (const deployment of kept.filter((o) => o.kind === 'Deployment'))
    for (const c of deployment.spec.template.spec.containers) {
      for (const kind of ['livenessProbe', 'readinessProbe']) {
        const get = c[kind]?.httpGet;
        if (get)
          kubeProbes.push({
            pod: `${deployment.metadata.name}-pod-0`,
            container: c.name,
            kind,
            path: get.path,
            port: get.port,
          });
      }
      // podman 4.3 publishes a containerPort without hostPort on the host (Redis's 6379 would
      // collide with a host's Redis); a cluster publishes nothing. Probes go to the pod's address.
      delete c.ports;
      // Its health checks from probes would run curl inside (not in the image) and need systemd.
      delete c.livenessProbe;
      delete c.readinessProbe;
    }
  for (const deployment of kept.filter((o) => o.kind === 'Deployment'))
    for (const c of deployment.spec.template.spec.containers)
      if (c.image === 'oauth-platform:0.9.0') {
        c.image = KUBE_IMAGE;
        c.envFrom = c.envFrom.filter((from) => !from.secretRef);
        c.env = [...(c.env ?? []), ...Object.entries(secret).map(([name, value]) => ({ name, value }))];
      }
  const dir = mkdtempSync(join(tmpdir(), 'deploy-test-kube-'));
  kubeFile = join(dir, 'platform.yaml');
  writeFileSync(kubeFile, kept.map((o) => YAML.stringify(o)).join('---\n'), { mode: 0o600 });
  const left = objects.filter((o) => !kept.includes(o)).map((o) => `${o.kind}/${o.metadata.name}`);
  return `left out (no podman equivalent): ${left.join(', ')}`;
}

async function kubeUp() {
  const since = Date.now();
  await podman([
    'build',
    '--pull=never',
    '--layers',
    '--format',
    'docker',
    ...buildFlags(),
    '-f',
    join(ROOT, 'deploy', 'Dockerfile'),
    '-t',
    KUBE_IMAGE,
    ROOT,
  ]);
  say(`  ${KUBE_IMAGE} (the three processes, no APP) built (${elapsed(since)} s)`);
  await podman(['network', 'create', KUBE_NET], { allowFail: true });
  await podman([
    'run',
    '-d',
    '--name',
    KUBE_DB,
    '--network',
    KUBE_NET,
    '-e',
    'POSTGRES_USER=platform',
    '-e',
    'POSTGRES_DB=platform',
    '-e',
    `POSTGRES_PASSWORD=${SECRETS_ENV.POSTGRES_PASSWORD}`,
    'docker.io/library/postgres:16',
  ]);
  await eventually(async () => {
    if ((await podman(['exec', KUBE_DB, 'pg_isready', '-U', 'platform'], { allowFail: true })).code !== 0)
      throw new Failure('the database for the pods is not ready');
  }, 60_000);
  await podman(['kube', 'play', '--replace', '--network', KUBE_NET, kubeFile]);
  const podIp = (pod) =>
    eventually(async () => {
      const infra = (
        await podman(['pod', 'inspect', '--format', '{{.InfraContainerID}}', pod], { allowFail: true })
      ).out.trim();
      const { out } = await podman(
        ['inspect', '--format', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', infra],
        {
          allowFail: true,
        },
      );
      if (!/^\d+\.\d+\.\d+\.\d+$/.test(out.trim())) throw new Failure(`pod ${pod} has no address`);
      return out.trim();
    });
  // The probes as the kubelet makes them: HTTP from outside the pod to its address.
  const since2 = Date.now();
  for (const probe of kubeProbes) {
    const base = `http://${await podIp(probe.pod)}:${probe.port}`;
    await eventually(
      async () =>
        expectStatus(
          `${probe.pod} ${probe.container} ${probe.kind} GET ${probe.path}`,
          await http('GET', probe.path, { base }),
          200,
        ),
      120_000,
    );
  }
  target = `http://${await podIp('backend-pod-0')}:3000`;
  say(
    `  ${kubeProbes.length} probes pass (${elapsed(since2)} s): ${[...new Set(kubeProbes.map((p) => `${p.pod}/${p.container}`))].join(', ')}`,
  );
  return `pods up; the backend pod at ${target} is ready (its sidecar answers on the pod's loopback)`;
}

async function kubeDown() {
  if (kubeFile) {
    await podman(['kube', 'down', kubeFile], { allowFail: true });
    rmSync(dirname(kubeFile), { recursive: true, force: true });
    kubeFile = undefined;
  }
  await podman(['rm', '-f', '-v', KUBE_DB], { allowFail: true });
  await podman(['network', 'rm', '-f', KUBE_NET], { allowFail: true });
  target = BASE;
}

let stackStarted = false;
async function main() {
  say(`log of every command: ${LOG}`);
  await step('preflight', preflight);
  await cleanup();
  if (COLD) await step('cold run: images built by earlier runs removed', removeBuiltImages);
  await step('base image: Debian bookworm minbase (debootstrap)', buildMinbase);
  await step("base image: node:20-bookworm-slim look-alike (this machine's Node)", buildNode);
  await step("base image: postgres:16 look-alike (Debian's PostgreSQL 15)", () =>
    buildFromDebian('docker.io/library/postgres:16', 'postgres.Containerfile', ['postgres-entrypoint.sh']),
  );
  await step("base image: redis:7 look-alike (Debian's Redis 7)", () =>
    buildFromDebian('docker.io/library/redis:7', 'redis.Containerfile'),
  );
  await step('platform images from deploy/Dockerfile (and the identity provider)', buildPlatform);
  stackStarted = true;
  await step('compose up: every service healthy, probes and identity provider answer', up);
  await step('admin token, app registered, token issued, validated at /v1/me, revoked, refused', lifecycle);
  await step('a person signs in through the identity provider (browser flow)', browserLogin);
  await step('down, up again: the data is kept (volume)', restartKeepsData);
  await step('control plane killed (kill -9): restart policy, stack recovers', () =>
    killAndRecover('control-plane'),
  );
  await step('sidecar killed (kill -9): restart policy, stack recovers', () => killAndRecover('sidecar'));
  if (!KUBE) return;
  await cleanup();
  await step('Kubernetes: deploy/overlays/dev for podman kube play', kubeManifests);
  await step('Kubernetes: podman kube play (backend pod, control plane, Redis)', kubeUp);
  await step('Kubernetes: admin token, app, token, /v1/me, revoked, refused', lifecycle);
  await kubeDown();
}

let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) process.exit(130);
  interrupted = true;
  say('interrupted: cleaning up (Ctrl-C again to leave it as it is)');
  void cleanup().finally(() => process.exit(130));
});

try {
  await main();
  if (KEEP) say(`--keep: the stack runs as project ${PROJECT}; http://localhost:3000`);
  else await cleanup();
  say(`passed in ${elapsed()} s`);
} catch (error) {
  const message = error instanceof Failure ? error.message : `unexpected: ${error?.message ?? error}`;
  console.error(`deploy-test: FAILED: ${redact(message)}`);
  if (stackStarted) await diagnose();
  console.error(`deploy-test: every command and its output: ${LOG}`);
  if (stackStarted && !KEEP) await cleanup().catch(() => {});
  say(`failed after ${elapsed()} s`);
  process.exitCode = 1;
}
