import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeWithPrerequisite } from './prerequisite';

const launcher = require('../../scripts/platform-launcher.js') as { freePort(): Promise<number> };

/** `describe` for suites that put Debian's HAProxy in front of backends (scripts/ci-haproxy.sh). */
export function describeWithHaproxy(name: string, suite: () => void): void {
  describeWithPrerequisite(
    name,
    {
      present: spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0,
      needs: 'HAProxy',
      install: 'apt-get install haproxy',
      ciScript: 'scripts/ci-haproxy.sh',
      kind: 'HAPROXY',
    },
    suite,
  );
}

export interface LoadBalancer {
  url: string;
  stop(): Promise<void>;
}

/**
 * HAProxy in front of `backends`, as a Kubernetes Service with readiness probes stands in front
 * of pods: round robin over the backends whose `/readyz` answers 200 (checked every 100 ms, two
 * failures in a row take a backend out), a request whose connection could not be made retried on
 * another (`option redispatch`: no backend received it), nothing else retried.
 */
export async function startLoadBalancer(dir: string, backends: string[]): Promise<LoadBalancer> {
  const port = await launcher.freePort();
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    [
      'global',
      '  maxconn 2000',
      'defaults',
      '  mode http',
      '  timeout connect 1s',
      // A check slower than this counts as failed: under a busy machine's load, not before.
      '  timeout check 2s',
      '  timeout client 30s',
      '  timeout server 30s',
      '  retries 3',
      '  option redispatch',
      '  retry-on conn-failure',
      'frontend edge',
      `  bind 127.0.0.1:${port}`,
      '  default_backend platform',
      'backend platform',
      '  balance roundrobin',
      '  option httpchk GET /readyz',
      '  http-check expect status 200',
      '  default-server inter 100ms fall 2 rise 1',
      ...backends.map((url, i) => `  server backend-${i} ${new URL(url).host} check`),
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', config], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 10_000; ;) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('HAProxy did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
