import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import * as oauth from 'oauth4webapi';
import { decodeJwt } from 'jose';
import { INVALID_GRANT_DESCRIPTION } from '@platform/domain';
import { adminToken, discover, postForm, registerApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

interface Workload {
  id: string;
  secret: string;
  claims: Record<string, unknown>;
  ttl: number;
}

/** A real OpenID Provider run by the spec (test/support/workload-issuer.mjs), minting workload tokens. */
class WorkloadIssuer {
  issuer = '';
  private process?: ChildProcess;

  constructor(private readonly workloads: Workload[]) {}

  async start(audience: string): Promise<void> {
    const script = resolve(__dirname, '../../support/workload-issuer.mjs');
    this.process = spawn(
      process.execPath,
      [script, JSON.stringify({ workloads: this.workloads, audience })],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    // oidc-provider warns of its in-memory adapter on stderr: shown only if the issuer dies.
    let errors = '';
    this.process.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    this.issuer = await new Promise<string>((done, fail) => {
      this.process!.once('exit', (code) =>
        fail(new Error(`the workload issuer exited (${code}): ${errors}`)),
      );
      this.process!.stdout!.once('data', (line: Buffer) =>
        done((JSON.parse(line.toString()) as { issuer: string }).issuer),
      );
    });
  }

  /** The workload's own token, as its platform hands it over (the kubelet, the CI runner). */
  async tokenOf(id: string, audience?: string): Promise<string> {
    const workload = this.workloads.find((candidate) => candidate.id === id)!;
    const response = await postForm(`${this.issuer}/token`, {
      grant_type: 'client_credentials',
      client_id: workload.id,
      client_secret: workload.secret,
      ...(audience !== undefined && { resource: audience }),
    });
    if (response.status !== 200) throw new Error(`the issuer refused: ${await response.text()}`);
    return ((await response.json()) as { access_token: string }).access_token;
  }

  stop(): void {
    this.process?.kill();
  }
}

/** A Kubernetes projected service-account token (kubernetes.io, "ServiceAccount token volume projection"). */
function podOf(namespace: string, serviceAccount: string): Workload {
  return {
    id: `system:serviceaccount:${namespace}:${serviceAccount}`,
    secret: randomUUID(),
    ttl: 3600,
    claims: {
      'kubernetes.io': {
        namespace,
        node: { name: 'node-a', uid: randomUUID() },
        pod: { name: `${serviceAccount}-7d9f8`, uid: randomUUID() },
        serviceaccount: { name: serviceAccount, uid: randomUUID() },
      },
    },
  };
}

/** A GitHub Actions OIDC token (docs.github.com, "About security hardening with OpenID Connect"). */
function ciJobOf(repository: string, ref: string): Workload {
  return {
    id: `repo:${repository}:ref:${ref}`,
    secret: randomUUID(),
    ttl: 300,
    claims: {
      ref,
      ref_type: 'branch',
      sha: 'd6a3b2c1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5',
      repository,
      repository_owner: repository.split('/')[0],
      repository_visibility: 'private',
      repository_id: '74',
      repository_owner_id: '65',
      run_id: '5004',
      run_number: '7',
      run_attempt: '1',
      actor: 'octocat',
      actor_id: '12',
      workflow: 'deploy',
      event_name: 'push',
      job_workflow_ref: `${repository}/.github/workflows/deploy.yml@${ref}`,
      runner_environment: 'github-hosted',
      head_ref: '',
      base_ref: '',
    },
  };
}

describe('POST /v1/oauth/token (jwt-bearer): workload identity federation', () => {
  const suffix = randomUUID().slice(0, 8);
  const tenant = `wif-${suffix}`;
  let platform: TestPlatform;
  let as: oauth.AuthorizationServer;
  let admin: string;
  const cluster = new WorkloadIssuer([podOf('payments', 'ledger'), podOf('staging', 'ledger')]);
  const ci = new WorkloadIssuer([
    ciJobOf('acme/ledger', 'refs/heads/main'),
    ciJobOf('acme/ledger', 'refs/heads/feature'),
  ]);
  const otherCluster = new WorkloadIssuer([podOf('payments', 'ledger')]);

  beforeAll(async () => {
    platform = sharedPlatform();
    as = await discover(platform);
    admin = await adminToken(as, platform);
    await Promise.all([cluster, ci, otherCluster].map((issuer) => issuer.start(platform.baseUrl)));
    for (const [client_id, declared_scopes] of [
      [`ledger-${suffix}`, ['jobs.read', 'jobs.write']],
      [`deployer-${suffix}`, ['secrets.read']],
    ] as const) {
      await registerApp(platform, admin, { client_id, declared_scopes: [...declared_scopes], tenant });
    }
    await trust(cluster.issuer, [
      {
        name: 'ledger-pods',
        audience: platform.baseUrl,
        claims: { '/kubernetes.io/namespace': 'payments', '/kubernetes.io/serviceaccount/name': 'ledger' },
        client_id: `ledger-${suffix}`,
        scopes: ['jobs.read', 'jobs.write'],
      },
    ]);
    await trust(ci.issuer, [
      {
        name: 'deploy-from-main',
        audience: platform.baseUrl,
        subject: 'repo:acme/ledger:ref:refs/heads/main',
        claims: { repository: 'acme/ledger', ref: 'refs/heads/main' },
        client_id: `deployer-${suffix}`,
        scopes: ['secrets.read'],
      },
    ]);
  });

  afterAll(() => [cluster, ci, otherCluster].forEach((issuer) => issuer.stop()));

  async function trust(issuer: string, rules: object[]) {
    const response = await fetch(`${platform.baseUrl}/api/v1/tenants/${tenant}/federated-issuers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ issuer, rules }),
    });
    if (response.status !== 201)
      throw new Error(`trust refused: ${response.status} ${await response.text()}`);
  }

  const exchange = (assertion: string, extra: Record<string, string> = {}) =>
    postForm(as.token_endpoint!, { grant_type: JWT_BEARER, assertion, ...extra });

  async function expectRefused(assertion: string) {
    const response = await exchange(assertion);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_grant');
    // The one description of every refused grant: no issuer, claim or rule named.
    expect(body.error_description).toBe(INVALID_GRANT_DESCRIPTION);
  }

  it('is advertised as a grant type', () => {
    expect(as.grant_types_supported).toContain(JWT_BEARER);
  });

  it('maps a Kubernetes service-account token to the ledger app, with its rule’s scopes', async () => {
    const response = await exchange(await cluster.tokenOf('system:serviceaccount:payments:ledger'));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { access_token: string; token_type: string; scope: string };
    expect(body.token_type).toBe('Bearer');
    expect(decodeJwt(body.access_token)).toMatchObject({
      client_id: `ledger-${suffix}`,
      sub: `ledger-${suffix}`,
      tenant,
      scope: 'jobs.read jobs.write',
    });
  });

  it('maps a CI job token of the main branch to the deployer app, no longer than the job token lives', async () => {
    const response = await exchange(await ci.tokenOf('repo:acme/ledger:ref:refs/heads/main'));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { access_token: string; expires_in: number };
    expect(decodeJwt(body.access_token)).toMatchObject({
      client_id: `deployer-${suffix}`,
      scope: 'secrets.read',
    });
    expect(body.expires_in).toBeLessThanOrEqual(300);
  });

  it('refuses another namespace, another branch, another audience and another issuer', async () => {
    await expectRefused(await cluster.tokenOf('system:serviceaccount:staging:ledger'));
    await expectRefused(await ci.tokenOf('repo:acme/ledger:ref:refs/heads/feature'));
    await expectRefused(
      await cluster.tokenOf('system:serviceaccount:payments:ledger', 'https://vault.example.com'),
    );
    await expectRefused(await otherCluster.tokenOf('system:serviceaccount:payments:ledger'));
  });

  it('refuses the same workload token presented twice', async () => {
    const token = await cluster.tokenOf('system:serviceaccount:payments:ledger');
    expect((await exchange(token)).status).toBe(200);
    await expectRefused(token);
  });

  it('audits every exchange with the issuer, the workload, the rule and the app', async () => {
    await exchange(await ci.tokenOf('repo:acme/ledger:ref:refs/heads/main'));
    const response = await fetch(
      `${platform.baseUrl}/api/v1/tenants/${tenant}/audit/records?action=token.federated&limit=100`,
      { headers: { authorization: `Bearer ${admin}` } },
    );
    expect(response.status).toBe(200);
    const { records } = (await response.json()) as { records: Array<Record<string, unknown>> };
    expect(records).toContainEqual(
      expect.objectContaining({
        action: 'token.federated',
        attributes: expect.objectContaining({
          issuer: ci.issuer,
          workload_subject: 'repo:acme/ledger:ref:refs/heads/main',
          rule: 'deploy-from-main',
          app: `deployer-${suffix}`,
        }),
      }),
    );
  });

  it('refuses a rule naming the audience alone, and an app of another tenant', async () => {
    const other = await registerApp(platform, admin, {
      client_id: `elsewhere-${suffix}`,
      tenant: `${tenant}-b`,
    });
    for (const rule of [
      {
        name: 'too-broad',
        audience: platform.baseUrl,
        claims: {},
        client_id: `ledger-${suffix}`,
        scopes: [],
      },
      {
        name: 'elsewhere',
        audience: platform.baseUrl,
        subject: 'x',
        claims: {},
        client_id: other.client_id,
        scopes: [],
      },
    ]) {
      const response = await fetch(`${platform.baseUrl}/api/v1/tenants/${tenant}/federated-issuers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ issuer: otherCluster.issuer, rules: [rule] }),
      });
      expect(response.status).toBe(400);
    }
  });
});
