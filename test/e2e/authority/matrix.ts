import * as grpc from '@grpc/grpc-js';
import { readdirSync } from 'node:fs';
import { loadProto, PROTO_ROOT } from '@platform/grpc';
import { decodeJwt } from 'jose';
import type * as oauth from 'oauth4webapi';
import { RPC_AUTHORITY } from '../../../apps/sidecar/src/grpc/rpc-authority';
import { invokeRpc } from '../../support/grpc';
import { identityOf, signIn } from '../../support/internal-consent';
import { basic, clientCredentialsToken } from '../../support/oauth';
import type { TestPlatform } from '../../support/platform';
import {
  covers,
  expectedOutcome,
  isScopePermission,
  type Need,
  type Outcome,
  type Principal,
  PLATFORM_ADMIN,
  PROBE_ACTION,
} from './oracle';

/**
 * The isolation matrix (docs/authorization.md): every operation of the published OpenAPI
 * document and every RPC of the `.proto` files, read with what it declares (`x-authority`,
 * RPC_AUTHORITY), called by each principal on each target, and compared with the oracle.
 */

export const TENANT_A = 'acme';
export const TENANT_B = 'globex';
/** A resource that does not exist: an allowed call answers 404 (or 400), past authorization. */
const NO_SUCH = '00000000-0000-4000-8000-000000000000';
/** A scope no route or RPC needs: what "an app without the scope" holds. */
const UNRELATED_SCOPES = ['files.read', 'jobs.read'];

/** The standard scopes a user-facing app may declare, one by one... */
const USER_SCOPES = [
  'jobs.read',
  'jobs.write',
  'files.read',
  'files.write',
  'secrets.read',
  'secrets.write',
  'audit.write',
  'audit.read',
  'users.read',
  'users.write',
  'scim.read',
  'scim.write',
  'ratelimit.check',
  'flags.read',
  'masking.apply',
  'federation.read',
  'federation.write',
  'saml.read',
  'saml.write',
  'entitlements.read',
  'quotas.read',
  'quotas.consume',
];
/** ...and as wildcards: the broad web app of the reproductions (`jobs.*` covers `jobs.work`). */
const BROAD_SCOPES = [
  'jobs.*',
  'files.*',
  'secrets.*',
  'audit.*',
  'users.*',
  'scim.*',
  'ratelimit.*',
  'flags.*',
  'masking.*',
  'federation.*',
  'saml.*',
  'entitlements.*',
  'quotas.*',
];

export type TargetName = 'A' | 'B' | 'platform' | 'own';

/** A caller of the matrix: the oracle's view of it, and its credentials. */
export interface MatrixPrincipal {
  name: string;
  model: Principal;
  token: string;
  client?: { clientId: string; clientSecret: string };
  /** Set when the platform refused to register this principal's app (it cannot exist: a deny). */
  refused?: string;
}

export interface Declared {
  permission: string;
  tenant: string;
}

/** Where the matrix calls: a backend and the sidecar beside it. */
export interface Endpoint {
  baseUrl: string;
  sidecarAddress: string;
}

export interface Observed {
  outcome: Outcome | 'error';
  status: string;
  detail: string;
}

/** An operation or RPC, as the matrix calls it. */
export interface Probe {
  name: string;
  surface: 'http' | 'grpc';
  /** Its `x-authority` or RPC_AUTHORITY entry; undefined: it declares nothing (a failure). */
  declared?: Declared;
  /** What the oracle reads; the declared permission, or what a decision RPC answers. */
  need?: Need;
  targets: TargetName[];
  /** 0: any time; 1: changes platform state (after the rest); 2: consumes the caller's token (last). */
  phase: 0 | 1 | 2;
  call(
    principal: MatrixPrincipal | undefined,
    target: TargetName,
    via: Endpoint,
    tenant: string,
  ): Promise<Observed>;
}

export interface Cell {
  probe: Probe;
  principal: MatrixPrincipal;
  target: TargetName;
  expected?: Outcome;
}

export interface CellResult {
  cell: Cell;
  observed: Observed;
}

/** The operations whose effects outlive the call: run after the others, in this order. */
const PHASES: Record<string, 1 | 2> = {
  // A new signing key; the old one keeps verifying (retired, not dropped), so tokens stay valid.
  rotateSigningKey: 1,
  // Revokes the very token that calls: the last thing each principal does.
  revokeOwnToken: 2,
  // Internal: refused without the internal token, but if it ever were not, it would revoke.
  'AuthService/RevokeToken': 2,
};

/** RPCs whose answer is a decision the oracle computes differently from their permission. */
const DECISION_RPCS: Record<string, Need> = {
  // Any valid token may ask; the answer is whether it reaches the tenant (PERMISSION_DENIED if not).
  'TenantService/ValidateIsolation': { permission: 'reach' },
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface DocumentedOperation {
  operationId?: string;
  parameters?: Array<{ name: string; in: string; schema?: { type?: string } }>;
  requestBody?: { content?: Record<string, unknown> };
  'x-authority'?: Declared;
}

// ---------------------------------------------------------------------------------------------
// Reading what is there

/** Every operation of the document the backend serves at /openapi.json. */
export async function httpProbes(baseUrl: string): Promise<Probe[]> {
  const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as {
    paths: Record<string, Partial<Record<(typeof METHODS)[number], DocumentedOperation>>>;
  };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method];
      return operation === undefined ? [] : [httpProbe(method.toUpperCase(), path, operation)];
    }),
  );
}

/** Every RPC of every `.proto` file, with its RPC_AUTHORITY entry. */
export function grpcProbes(): Probe[] {
  const files = (readdirSync(PROTO_ROOT, { recursive: true }) as string[]).filter((f) =>
    f.endsWith('.proto'),
  );
  return files.flatMap((file) =>
    Object.entries(loadProto(file)).flatMap(([service, value]) => {
      if ('format' in value || typeof value !== 'object') return [];
      return Object.entries(value as unknown as grpc.ServiceDefinition).map(([method, definition]) =>
        grpcProbe(service, method, definition),
      );
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// The principals

export interface Principals {
  /** The principals for an operation: the fixed ones, and the apps holding (or not) its scope. */
  for(probe: Probe): MatrixPrincipal[];
}

/** The scope "the operation's scope" means for the service principals. */
function scopeOf(probe: Probe): string {
  const permission = probe.need?.permission ?? '';
  if (permission === 'requested') return PROBE_ACTION;
  return isScopePermission(permission) ? permission : UNRELATED_SCOPES[0];
}

/** A scope that neither covers nor is covered by `scope`: what "an app without it" holds. */
const withoutScope = (scope: string) =>
  UNRELATED_SCOPES.find((other) => !covers(other, scope) && !covers(scope, other))!;

/**
 * Registers the apps and signs the users in: the admin app, a global_admin user, a tenant_admin,
 * a user and a viewer of A (through a web app declaring each user scope), a tenant_admin and a
 * viewer of A through a web app declaring them as wildcards, and for each scope the probes need
 * a service app bound to A and an unbound one holding it, and an unbound one without it.
 */
export async function setUpPrincipals(
  platform: TestPlatform,
  as: oauth.AuthorizationServer,
  admin: string,
  probes: Probe[],
): Promise<Principals> {
  const register = (body: Record<string, unknown>) =>
    fetch(`${platform.baseUrl}/v1/oauth/apps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: body.client_id, ...body }),
    });

  const webApp = async (clientId: string, scopes: string[]) => {
    const response = await register({
      client_id: clientId,
      app_type: 'web',
      declared_scopes: scopes,
      redirect_uris: ['http://127.0.0.1:9/callback'],
    });
    if (response.status !== 201) throw new Error(`${clientId}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Parameters<typeof signIn>[1];
  };
  const [portal, broadPortal] = await Promise.all([
    webApp('mx-portal', USER_SCOPES),
    webApp('mx-broad-portal', BROAD_SCOPES),
  ]);

  const user = async (name: string, subject: string, roles: string[], app = portal, scopes = USER_SCOPES) => {
    const { tokens } = await signIn(platform, app, {
      identity: identityOf(subject, TENANT_A, roles),
      scope: scopes.join(' '),
    });
    // The matrix is only valid if the token carries what the oracle assumes it does.
    const issued = String(decodeJwt(tokens.access_token).scope ?? '')
      .split(' ')
      .sort();
    if (issued.join(' ') !== [...scopes].sort().join(' ')) {
      throw new Error(`${name}: issued scope "${issued.join(' ')}", asked "${scopes.join(' ')}"`);
    }
    const model: Principal = { kind: 'user', tenant: TENANT_A, roles, scopes };
    return { name, model, token: tokens.access_token } satisfies MatrixPrincipal;
  };

  const fixed: MatrixPrincipal[] = [
    {
      name: 'admin app',
      model: { kind: 'service', scopes: ['admin.*'] },
      token: admin,
      client: platform.admin,
    },
    ...(await Promise.all([
      user('global_admin user', 'mx-root', ['global_admin']),
      user('tenant_admin of A', 'mx-ada', ['tenant_admin']),
      user('user of A', 'mx-uma', ['user']),
      user('viewer of A', 'mx-vic', ['viewer']),
    ])),
  ];
  // The reproductions: the strongest and the weakest role of a tenant holding wildcards.
  const broad = await Promise.all([
    user('tenant_admin of A through a broad web app', 'mx-bea', ['tenant_admin'], broadPortal, BROAD_SCOPES),
    user('viewer of A through a broad web app', 'mx-ben', ['viewer'], broadPortal, BROAD_SCOPES),
  ]);

  // The service principals: an app bound to A and an unbound one, each declaring every scope the
  // probes need (admin.* in a bound app of its own: if the registry refuses it, that principal
  // cannot exist, which the matrix counts as a refusal). Each token asks for one scope, so it
  // carries exactly "the operation's scope"; argon2 runs once per app (verified secrets are kept).
  const scopes = [...new Set(probes.flatMap((probe) => [scopeOf(probe), withoutScope(scopeOf(probe))]))];
  const serviceApp = async (clientId: string, declared: string[], tenant?: string) => {
    const response = await register({
      client_id: clientId,
      app_type: 'service',
      declared_scopes: declared,
      ...(tenant && { tenant }),
    });
    if (response.status !== 201)
      return { refused: `registration refused: ${response.status} ${await response.text()}` };
    const { client_secret } = (await response.json()) as { client_secret: string };
    return { client: { clientId, clientSecret: client_secret } };
  };
  const [bound, boundAdmin, unbound] = await Promise.all([
    serviceApp(
      'mx-bound',
      scopes.filter((scope) => scope !== PLATFORM_ADMIN),
      TENANT_A,
    ),
    serviceApp('mx-bound-admin', [PLATFORM_ADMIN], TENANT_A),
    serviceApp('mx-unbound', scopes),
  ]);
  const apps = new Map<string, MatrixPrincipal>();
  const service = async (scope: string, tenant?: string): Promise<MatrixPrincipal> => {
    const name = tenant === undefined ? `unbound service (${scope})` : `service bound to A (${scope})`;
    const model: Principal =
      tenant === undefined
        ? { kind: 'service', scopes: [scope] }
        : { kind: 'service', scopes: [scope], tenant };
    const app = tenant === undefined ? unbound : scope === PLATFORM_ADMIN ? boundAdmin : bound;
    if (app.client === undefined) return { name, model, token: '', refused: app.refused };
    const response = await clientCredentialsToken(as, app.client, { scope });
    if (response.scope !== scope)
      throw new Error(`${name}: issued scope "${response.scope}", asked "${scope}"`);
    return { name, model, token: response.access_token, client: app.client };
  };
  await inBatches(
    scopes.flatMap((scope) => [
      [scope, TENANT_A],
      [scope, undefined],
    ]) as Array<[string, string | undefined]>,
    4,
    async ([scope, tenant]) => {
      apps.set(`${tenant ?? ''}|${scope}`, await service(scope, tenant));
    },
  );
  const app = (scope: string, tenant?: string) => apps.get(`${tenant ?? ''}|${scope}`)!;

  return {
    for(probe) {
      const scope = scopeOf(probe);
      return [
        ...fixed,
        app(scope, TENANT_A),
        app(scope),
        { ...app(withoutScope(scope)), name: `unbound service without ${scope} (${withoutScope(scope)})` },
        ...broad,
      ];
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The cells

export function cellsOf(probes: Probe[], principals: Principals): Cell[] {
  return probes.flatMap((probe) =>
    principals.for(probe).flatMap((principal) =>
      probe.targets.map((target) => ({
        probe,
        principal,
        target,
        expected:
          probe.need && expectedOutcome(principal.model, probe.need, tenantOf(target, principal.model)),
      })),
    ),
  );
}

/** The tenant a target names; `own`: the caller's (none for an unbound app). */
export function tenantOf(target: TargetName, principal: Principal): string {
  switch (target) {
    case 'A':
      return TENANT_A;
    case 'B':
      return TENANT_B;
    case 'platform':
      return '';
    case 'own':
      return principal.tenant ?? '';
  }
}

/** Runs the cells phase by phase, `concurrency` at a time; `via(i)` picks the endpoint of cell i. */
export async function runCells(
  cells: Cell[],
  via: (index: number) => Endpoint,
  concurrency = 8,
): Promise<CellResult[]> {
  const results: CellResult[] = [];
  for (const phase of [0, 1, 2] as const) {
    const batch = cells
      .map((cell, index) => ({ cell, index }))
      .filter(({ cell }) => cell.probe.phase === phase);
    await inBatches(batch, concurrency, async ({ cell, index }) => {
      const observed = await observe(cell, via(index));
      results.push({ cell, observed });
    });
  }
  return results;
}

async function observe({ probe, principal, target }: Cell, endpoint: Endpoint): Promise<Observed> {
  if (probe.declared === undefined) return { outcome: 'error', status: 'undeclared', detail: '' };
  if (principal.refused !== undefined)
    return { outcome: 'deny', status: 'not registered', detail: principal.refused };
  try {
    return await probe.call(principal, target, endpoint, tenantOf(target, principal.model));
  } catch (error) {
    return { outcome: 'error', status: 'threw', detail: (error as Error).message };
  }
}

/** A mismatch, written for a reader: what, who, where, expected, observed. */
export function mismatchesOf(results: CellResult[]): string[] {
  return results
    .filter(({ cell, observed }) => cell.expected === undefined || observed.outcome !== cell.expected)
    .map(({ cell, observed }) => {
      const expected =
        cell.probe.declared === undefined
          ? 'a declaration'
          : (cell.expected ?? `an oracle for ${JSON.stringify(cell.probe.declared)}`);
      return `${cell.probe.name} | ${cell.principal.name} | ${cell.target} | expected ${expected} | observed ${observed.outcome} (${observed.status}) ${observed.detail}`.trim();
    })
    .sort();
}

// ---------------------------------------------------------------------------------------------
// HTTP

/**
 * 401: the credential does not count; 403: refused; a 5xx: a failure of its own (but the 503 of
 * a public or browser route whose identity provider is not configured); anything else (2xx, 3xx,
 * 400, 404, 409...) got past authorization: the body or the resource was refused, not the caller.
 */
function classifyStatus(status: number, permission: string): Outcome | 'error' {
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'deny';
  if (status === 503 && (permission === 'none' || permission === 'session')) return 'allow';
  return status >= 500 ? 'error' : 'allow';
}

function httpProbe(method: string, path: string, operation: DocumentedOperation): Probe {
  const declared = operation['x-authority'];
  const id = operation.operationId ?? `${method} ${path}`;
  const source = declared?.tenant ?? 'none';
  const targets: TargetName[] = source === 'none' ? ['platform'] : ['A', 'B'];
  const bodyType = Object.keys(operation.requestBody?.content ?? {})[0];
  const integers = new Set(
    (operation.parameters ?? [])
      .filter((p) => p.in === 'path' && p.schema?.type === 'integer')
      .map((p) => p.name),
  );

  const request = (principal: MatrixPrincipal | undefined, tenant: string, baseUrl: string) => {
    const url = path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      source === `path:${name}`
        ? tenant
        : integers.has(name) || /version|sequence/.test(name)
          ? '1'
          : NO_SUCH,
    );
    const headers: Record<string, string> = {};
    let body: string | undefined;
    if (principal !== undefined) {
      headers.authorization =
        declared?.permission === 'client' && principal.client
          ? basic(principal.client.clientId, principal.client.clientSecret)
          : `Bearer ${principal.token}`;
    }
    if (source === 'header-or-token') headers['x-platform-tenant'] = tenant;
    if (bodyType === 'application/x-www-form-urlencoded') {
      headers['content-type'] = bodyType;
      body = new URLSearchParams({ grant_type: 'client_credentials', token: NO_SUCH }).toString();
    } else if (bodyType !== undefined) {
      headers['content-type'] = 'application/json';
      const field = source.startsWith('body-or-token:') ? source.slice('body-or-token:'.length) : undefined;
      body = JSON.stringify(field === undefined ? {} : { [field]: tenant });
    }
    return fetch(`${baseUrl}${url}`, { method, headers, body, redirect: 'manual' });
  };

  return {
    name: `${method} ${path}`,
    surface: 'http',
    declared,
    need: declared && { permission: declared.permission },
    targets,
    phase: PHASES[id] ?? 0,
    async call(principal, _target, via, tenant) {
      const permission = declared?.permission ?? '';
      const response = await request(principal, tenant, via.baseUrl);
      const detail =
        response.status === 403 || response.status >= 500 ? (await response.text()).slice(0, 200) : '';
      if (permission === 'session') {
        const anonymous = await request(undefined, tenant, via.baseUrl);
        if (anonymous.status === response.status)
          return { outcome: 'as-anonymous', status: String(response.status), detail };
      }
      return {
        outcome: classifyStatus(response.status, permission),
        status: String(response.status),
        detail,
      };
    },
  } satisfies Probe as Probe;
}

// ---------------------------------------------------------------------------------------------
// gRPC

/** A request that passes validation, so authorization is the only thing that can refuse it. */
const GRPC_REQUESTS: Record<string, (token: string, tenant: string) => object> = {
  'AuthService/ValidateToken': (token) => ({ token }),
  'AuthService/Authorize': (token, tenant) => ({ token, action: PROBE_ACTION, resource_tenant: tenant }),
  'AuthService/RevokeToken': (token) => ({ token }),
  'AuthService/GetJwks': () => ({}),
  'AuthService/SyncRevocations': () => ({}),
  'AuthService/WatchInvalidations': () => ({}),
  'PolicyService/Evaluate': (_, tenant) => evaluation(tenant),
  'PolicyService/DryRun': (_, tenant) => ({ request: evaluation(tenant) }),
  'TenantService/ResolveTenant': (token) => ({ token }),
  'TenantService/ValidateIsolation': (token, tenant) => ({ token, resource_tenant: tenant }),
  'AuditService/EmitAuditEvent': (token, tenant) => ({
    token,
    tenant,
    action: 'matrix.probe',
    target: 'matrix',
    outcome: 'success',
  }),
  'AuditService/QueryAudit': (token, tenant) => ({ token, tenant, limit: 1 }),
  'MaskingService/MaskString': (token) => ({ token, text: 'call 555-0100' }),
  'MaskingService/Mask': (token) => ({ token, json: '{"a":"b"}', field_paths: ['a'] }),
  'RateLimitService/CheckRateLimit': (token, tenant) => ({
    token,
    tenant,
    domain: 'matrix',
    descriptors: [{ entries: [{ key: 'k', value: 'v' }] }],
    hits_addend: 1,
  }),
  'RateLimitService/ResetRateLimit': (token, tenant) => ({
    token,
    tenant,
    domain: 'matrix',
    descriptor: { entries: [{ key: 'k', value: 'v' }] },
  }),
  'FlagService/EvaluateFlag': (token, tenant) => ({
    token,
    tenant,
    flag_key: 'matrix',
    type: 'boolean',
    default_value: { bool_value: false },
  }),
  'SecretService/ResolveSecret': (token, tenant) => ({ token, reference: `secret://${tenant}/matrix` }),
  'JobService/SubmitJob': (token, tenant) => ({ token, tenant, type: 'matrix.probe', payload_json: '{}' }),
  'JobService/GetJob': (token, tenant) => ({ token, tenant, id: NO_SUCH }),
  'JobService/ListJobs': (token, tenant) => ({ token, tenant, limit: 1 }),
  'JobService/CancelJob': (token, tenant) => ({ token, tenant, id: NO_SUCH }),
  'JobService/WatchJob': (token, tenant) => ({ token, tenant, id: NO_SUCH }),
  'JobService/GetJobLogs': (token, tenant) => ({ token, tenant, id: NO_SUCH }),
  'JobService/GetJobOutput': (token, tenant) => ({ token, tenant, id: NO_SUCH }),
  'EntitlementService/CheckEntitlement': (token, tenant) => ({ token, tenant, feature: 'matrix' }),
  'EntitlementService/ListEntitlements': (token, tenant) => ({ token, tenant }),
  // No plan limits the meter: allowed, nothing counted (limited false).
  'QuotaService/ConsumeQuota': (token, tenant) => ({ token, tenant, meter: 'matrix', units: 1 }),
  'QuotaService/GetQuotaUsage': (token, tenant) => ({ token, tenant, meter: 'matrix' }),
};

/** What Evaluate and DryRun decide: a viewer of A reading jobs; they act for nobody. */
const evaluation = (tenant: string) => ({
  principal: {
    kind: 'user',
    id: 'mx-someone',
    client_id: 'mx-portal',
    tenant: TENANT_A,
    roles: ['viewer'],
    scopes: ['jobs.read'],
  },
  action: 'jobs.read',
  resource_tenant: tenant,
});

const GRPC_TARGETS: Record<string, TargetName[]> = {
  request: ['A', 'B'],
  'request-or-token': ['A', 'B'],
  reference: ['A', 'B'],
  token: ['own'],
  none: ['platform'],
};

const clients = new Map<string, grpc.Client>();

export function closeGrpcClients(): void {
  for (const client of clients.values()) client.close();
  clients.clear();
}

function grpcProbe(
  service: string,
  method: string,
  definition: grpc.MethodDefinition<unknown, unknown>,
): Probe {
  const name = `${service.split('.').pop()}/${method}`;
  const declared = (RPC_AUTHORITY as Record<string, Declared | undefined>)[name];
  const build = GRPC_REQUESTS[name];
  return {
    name,
    surface: 'grpc',
    declared,
    need:
      build === undefined
        ? undefined
        : (DECISION_RPCS[name] ?? (declared && { permission: declared.permission })),
    targets: GRPC_TARGETS[declared?.tenant ?? 'none'] ?? ['platform'],
    phase: PHASES[name] ?? 0,
    async call(principal, _target, via, tenant) {
      let client = clients.get(via.sidecarAddress);
      if (client === undefined) {
        client = new grpc.Client(via.sidecarAddress, grpc.credentials.createInsecure());
        clients.set(via.sidecarAddress, client);
      }
      const { code, details } = await invokeRpc(client, definition, build(principal?.token ?? '', tenant));
      const outcome: Observed['outcome'] =
        code === grpc.status.PERMISSION_DENIED
          ? 'deny'
          : code === grpc.status.UNAUTHENTICATED
            ? 'unauthenticated'
            : [
                  grpc.status.INTERNAL,
                  grpc.status.UNKNOWN,
                  grpc.status.UNAVAILABLE,
                  grpc.status.DEADLINE_EXCEEDED,
                ].includes(code)
              ? 'error'
              : 'allow';
      return { outcome, status: grpc.status[code], detail: outcome === 'allow' ? '' : details.slice(0, 200) };
    },
  };
}

// ---------------------------------------------------------------------------------------------

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}

/** A few probes of each kind of declaration (HTTP and gRPC apart): the sample the replicas run. */
export function sampleOf(probes: Probe[], perKind = 2): Probe[] {
  const kinds = new Map<string, Probe[]>();
  for (const probe of [...probes].sort((a, b) => a.name.localeCompare(b.name))) {
    const permission = probe.need?.permission ?? 'undeclared';
    const kind = `${probe.surface}:${isScopePermission(permission) && permission !== 'admin.*' ? 'action' : permission}:${probe.declared?.tenant.split(':')[0]}`;
    const chosen = kinds.get(kind) ?? [];
    if (chosen.length < perKind) kinds.set(kind, [...chosen, probe]);
  }
  return [...kinds.values()].flat();
}

/** Every cell as a line (`MATRIX_REPORT=<file>` writes them: what a reviewer reads to see the matrix). */
export function reportOf(results: CellResult[]): string {
  return results
    .map(({ cell, observed }) =>
      [
        cell.probe.name,
        cell.principal.name,
        cell.target,
        cell.expected ?? '?',
        observed.outcome,
        observed.status,
      ].join(' | '),
    )
    .sort()
    .join('\n');
}

/** Counts by expected and observed outcome, for the run's log. */
export function summaryOf(results: CellResult[], probes: Probe[], ms: number): string {
  const counts = new Map<string, number>();
  for (const { cell, observed } of results) {
    const key = `expected ${cell.expected ?? '?'} / observed ${observed.outcome}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const http = probes.filter((p) => p.surface === 'http').length;
  return [
    `${results.length} cells (${http} operations, ${probes.length - http} RPCs) in ${(ms / 1000).toFixed(1)} s`,
    ...[...counts.entries()].sort().map(([key, count]) => `  ${key}: ${count}`),
  ].join('\n');
}
