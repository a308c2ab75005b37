import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { adminToken, discover } from '../../support/oauth';
import {
  startBackendReplica,
  startControlPlaneReplica,
  startPlatform,
  type TestPlatform,
} from '../../support/platform';
import { createScratchDatabase, describeOnPostgres, type ScratchDatabase } from '../../support/postgres';
import {
  cellsOf,
  closeGrpcClients,
  type Endpoint,
  grpcProbes,
  httpProbes,
  mismatchesOf,
  type Principals,
  type Probe,
  reportOf,
  runCells,
  sampleOf,
  setUpPrincipals,
  summaryOf,
} from './matrix';
import { expectedOutcome } from './oracle';

/**
 * The isolation matrix of issue "Authority" (docs/authorization.md): every operation of the
 * published OpenAPI document and every RPC of the `.proto` files, with what each declares
 * (`x-authority`, RPC_AUTHORITY), called by the platform admin app, a global_admin user, a
 * tenant_admin, a user and a viewer of A, a service app bound to A and an unbound one holding the
 * operation's scope, an unbound one without it, and a tenant_admin and a viewer of A through a web
 * app declaring broad wildcard scopes, on a resource of A, of B or platform-wide. Each answer is compared with an
 * oracle written from the documented model (./oracle.ts), never with the implementation's
 * decision. Observed: 403 / PERMISSION_DENIED is a refusal; 401 / UNAUTHENTICATED, a credential
 * that does not count; any other answer (404, 400 included: the resource or the body was refused,
 * not the caller) got past authorization.
 */

const ENV = {
  SECRETS_KEK: randomBytes(32).toString('base64'),
  // The matrix presents user tokens where a client must authenticate, and calls internal RPCs
  // without the internal token: hundreds of deliberate failures that must not lock the address out.
  RATE_LIMIT_FAILED_AUTH_PER_CLIENT: '0',
  RATE_LIMIT_FAILED_AUTH_PER_ADDRESS: '0',
};

const undeclared = (probes: Probe[]) =>
  probes.filter((probe) => probe.declared === undefined).map((p) => p.name);

/** Probes whose declaration the oracle cannot read: it must know every kind. */
const unknownToTheOracle = (probes: Probe[]) =>
  probes
    .filter(
      (probe) =>
        probe.declared !== undefined &&
        (probe.need === undefined ||
          expectedOutcome({ kind: 'service', scopes: [] }, probe.need, '') === undefined),
    )
    .map((probe) => `${probe.name} ${JSON.stringify(probe.declared)}`);

describe('isolation matrix: every operation and RPC, every principal, every tenant', () => {
  let platform: TestPlatform;
  let probes: Probe[];
  let principals: Principals;

  beforeAll(async () => {
    platform = await startPlatform({ env: ENV });
    const as = await discover(platform);
    probes = [...(await httpProbes(platform.baseUrl)), ...grpcProbes()];
    principals = await setUpPrincipals(platform, as, await adminToken(as, platform), probes);
  }, 90_000);
  afterAll(async () => {
    closeGrpcClients();
    await platform?.stop();
  });

  it('reads every operation of /openapi.json and every RPC of the protos', () => {
    expect(probes.filter((p) => p.surface === 'http').length).toBeGreaterThan(80);
    expect(probes.filter((p) => p.surface === 'grpc').length).toBeGreaterThanOrEqual(25);
  });

  it('finds a declaration for every operation and RPC', () => {
    expect(undeclared(probes)).toEqual([]);
  });

  it('knows what every declaration means', () => {
    expect(unknownToTheOracle(probes)).toEqual([]);
  });

  // The matrix holds each route to what it declares; these hold the declarations to the paths.
  it('takes the tenant of every /tenants/{tenant}/ route from its path', () => {
    const elsewhere = probes
      .filter(
        (probe) => probe.name.includes('/tenants/{tenant}/') && probe.declared?.tenant !== 'path:tenant',
      )
      .map((probe) => probe.name);
    expect(elsewhere).toEqual([]);
  });

  it('lets no state change through on just any valid token', () => {
    const open = probes
      .filter(
        (probe) => /^(POST|PUT|PATCH|DELETE) /.test(probe.name) && probe.declared?.permission === 'token',
      )
      .map((probe) => probe.name);
    expect(open).toEqual([]);
  });

  it('answers every cell as the documented model says', async () => {
    const started = Date.now();
    const cells = cellsOf(probes, principals);
    const endpoint: Endpoint = { baseUrl: platform.baseUrl, sidecarAddress: platform.sidecarAddress };
    const results = await runCells(cells, () => endpoint);
    console.log(summaryOf(results, probes, Date.now() - started));
    if (process.env.MATRIX_REPORT) writeFileSync(process.env.MATRIX_REPORT, reportOf(results));
    expect(mismatchesOf(results)).toEqual([]);
  }, 120_000);
});

describeOnPostgres(
  'isolation matrix, a sample of each kind, over two control planes and two backends',
  () => {
    let database: ScratchDatabase;
    let platform: TestPlatform;
    let replicas: Array<{ stop(): Promise<void> }> = [];
    let endpoints: Endpoint[];
    let probes: Probe[];
    let principals: Principals;

    beforeAll(async () => {
      database = await createScratchDatabase();
      platform = await startPlatform({ databaseUrl: database.url, env: ENV });
      const controlPlane = await startControlPlaneReplica(platform);
      const backend = await startBackendReplica(platform, { CONTROL_PLANE_URL: controlPlane.url });
      replicas = [backend, controlPlane];
      endpoints = [
        { baseUrl: platform.baseUrl, sidecarAddress: platform.sidecarAddress },
        { baseUrl: backend.baseUrl, sidecarAddress: backend.sidecarAddress },
      ];
      const as = await discover(platform);
      probes = sampleOf([...(await httpProbes(platform.baseUrl)), ...grpcProbes()]);
      principals = await setUpPrincipals(platform, as, await adminToken(as, platform), probes);
    }, 90_000);
    afterAll(async () => {
      closeGrpcClients();
      for (const replica of replicas) await replica.stop();
      await platform?.stop();
      await database?.drop();
    });

    it('answers every cell of the sample as the documented model says, whichever replica serves it', async () => {
      const started = Date.now();
      const results = await runCells(cellsOf(probes, principals), (index) => endpoints[index % 2]);
      console.log(summaryOf(results, probes, Date.now() - started));
      expect(mismatchesOf(results)).toEqual([]);
    }, 120_000);
  },
);
