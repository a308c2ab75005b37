import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { parseAllDocuments } from 'yaml';
import { DEFAULTS } from '../src/defaults';

const ROOT = join(__dirname, '..', '..', '..');
const MANIFEST = join(ROOT, 'deploy', 'kubernetes', 'platform.yaml');

/** The official schema of each kind the manifest may hold (kubernetes-models). */
const MODELS: Record<string, new (object: never) => { validate(): void }> = {
  ConfigMap,
  Deployment,
  NetworkPolicy,
  PodDisruptionBudget,
  Service,
};

type Manifest = { kind: string; metadata: { name: string }; [key: string]: unknown };
type Container = {
  name: string;
  env?: Array<{ name: string }>;
  livenessProbe?: { httpGet?: { path: string; port: number } };
  readinessProbe?: { httpGet?: { path: string; port: number } };
  resources?: { requests?: Record<string, string> };
};

const manifests = (): Manifest[] =>
  parseAllDocuments(readFileSync(MANIFEST, 'utf8')).map((doc) => doc.toJS() as Manifest);
const named = (kind: string, name: string) =>
  manifests().find((m) => m.kind === kind && m.metadata.name === name);
const containersOf = (deployment: Manifest | undefined): Container[] =>
  (deployment as unknown as { spec: { template: { spec: { containers: Container[] } } } }).spec.template.spec
    .containers;

/** The Kubernetes manifests, checked offline against the official schemas and our configuration. */
describe('deploy/kubernetes/platform.yaml', () => {
  it('holds only objects that validate against the Kubernetes schemas', () => {
    for (const manifest of manifests()) {
      const Model = MODELS[manifest.kind];
      expect({ kind: manifest.kind, known: Model !== undefined }).toEqual({
        kind: manifest.kind,
        known: true,
      });
      expect(() => new Model(manifest as never).validate()).not.toThrow();
    }
  });

  it('would fail on a broken manifest', () => {
    const broken = structuredClone(named('Deployment', 'backend')) as unknown as {
      spec: { replicas: unknown };
    };
    broken.spec.replicas = 'three';
    expect(() => new Deployment(broken as never).validate()).toThrow();
  });

  it('runs one Deployment per service, the sidecar in the backend pod, probes on /livez and /readyz', () => {
    expect(containersOf(named('Deployment', 'control-plane')).map((c) => c.name)).toEqual(['control-plane']);
    expect(containersOf(named('Deployment', 'backend')).map((c) => c.name)).toEqual(['backend', 'sidecar']);
    const ports = {
      'control-plane': DEFAULTS.controlPlanePort,
      backend: DEFAULTS.backendPort,
      sidecar: DEFAULTS.sidecarHealthPort,
    };
    for (const container of [
      ...containersOf(named('Deployment', 'control-plane')),
      ...containersOf(named('Deployment', 'backend')),
    ]) {
      const port = ports[container.name as keyof typeof ports];
      expect({ container: container.name, liveness: container.livenessProbe?.httpGet }).toEqual({
        container: container.name,
        liveness: { path: '/livez', port },
      });
      expect({ container: container.name, readiness: container.readinessProbe?.httpGet }).toEqual({
        container: container.name,
        readiness: { path: '/readyz', port },
      });
      expect(container.resources?.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
    }
  });

  it('sets only variables the platform reads, and no secret', () => {
    const known = readFileSync(join(__dirname, '..', 'src', 'environment.ts'), 'utf8');
    const configMap = named('ConfigMap', 'oauth-platform') as unknown as { data: Record<string, string> };
    const names = [
      ...Object.keys(configMap.data),
      ...manifests()
        .filter((m) => m.kind === 'Deployment')
        .flatMap((d) => containersOf(d).flatMap((c) => (c.env ?? []).map((e) => e.name))),
    ];
    // APP picks the process in the image (deploy/Dockerfile).
    for (const name of names.filter((n) => n !== 'APP')) {
      expect({ name, known: known.includes(`  ${name}?:`) }).toEqual({ name, known: true });
    }
    for (const secret of [
      'INTERNAL_TOKEN',
      'SESSION_SECRET',
      'ADMIN_CLIENT_SECRET',
      'SECRETS_KEK',
      'DATABASE_URL',
      'OIDC_CLIENT_SECRET',
    ]) {
      expect(names).not.toContain(secret);
    }
  });

  it('keeps the control plane internal and the pods available through disruptions', () => {
    const policy = named('NetworkPolicy', 'control-plane-internal') as unknown as {
      spec: { podSelector: unknown; ingress: Array<{ from: Array<{ podSelector?: unknown }> }> };
    };
    expect(policy.spec.podSelector).toEqual({ matchLabels: { app: 'control-plane' } });
    expect(policy.spec.ingress[0].from).toEqual([{ podSelector: { matchLabels: { app: 'backend' } } }]);
    expect(named('PodDisruptionBudget', 'backend')).toBeDefined();
    expect(named('PodDisruptionBudget', 'control-plane')).toBeDefined();
  });
});

const COMPOSE = join(ROOT, 'docker-compose.yml');
// The package exports no bin path: find it next to its package.json.
const DCLINT = join(dirname(require.resolve('dclint/package.json')), 'bin', 'dclint.cjs');

/** dclint: the Compose specification's schema and its rules; answers the exit code and output. */
function dclint(file: string): { code: number; output: string } {
  try {
    return { code: 0, output: execFileSync(process.execPath, [DCLINT, file], { encoding: 'utf8' }) };
  } catch (error) {
    const { status, stdout, stderr } = error as { status: number; stdout: string; stderr: string };
    return { code: status, output: `${stdout}${stderr}` };
  }
}

describe('docker-compose.yml', () => {
  it('passes the Compose schema and the linter', () => {
    expect(dclint(COMPOSE)).toEqual({ code: 0, output: expect.not.stringMatching(/error/) });
  });

  it('would fail on a broken file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compose-'));
    const broken = join(dir, 'docker-compose.yml');
    writeFileSync(broken, readFileSync(COMPOSE, 'utf8').replace('interval: 2s', 'interval: [2s]'));
    try {
      expect(dclint(broken).code).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs Postgres, Redis, the three services, and Dex in the development profile', () => {
    const compose = parseAllDocuments(readFileSync(COMPOSE, 'utf8'))[0].toJS() as {
      services: Record<string, { profiles?: string[]; network_mode?: string }>;
    };
    expect(Object.keys(compose.services).sort()).toEqual([
      'backend',
      'control-plane',
      'dex',
      'postgres',
      'redis',
      'sidecar',
    ]);
    expect(compose.services.dex.profiles).toEqual(['dev']);
    // The sidecar shares the backend's network namespace, as in the pod.
    expect(compose.services.sidecar.network_mode).toBe('service:backend');
  });
});
