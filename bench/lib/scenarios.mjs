import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { grpc, grpcLoad, httpLoad, percentile, validateToken } from './load.mjs';
import { dpopClientKey, proofPool } from './dpop.mjs';
import { assertionPool, clientAssertionKey } from './client-assertion.mjs';
import { samlBearerScenario } from './saml.mjs';
import { samlLoginScenario } from './saml-login.mjs';
import { grpcFloor } from './grpc-floor.mjs';
import { besideMain, DATABASE_NAMES, platformsOn, rowsOn, scratchDatabase } from './databases.mjs';
import {
  graphileWorkerQueue,
  idleStart,
  JOB_TYPE,
  jobsInTurns,
  pgBossQueue,
  started,
  SUBMISSION_BATCH,
  WORKERS,
} from './job-peers.mjs';
import { measureRs256 } from './limit.mjs';
import { cpuSeconds } from './proc.mjs';
import { onCleanup, track } from './processes.mjs';
import { startExtraBackend, startExtraSidecar, startPlatform } from './platform.mjs';
import {
  adminPut,
  clientCredentialsForm,
  FORM,
  form,
  issueToken,
  jwsHeader,
  postForm,
  registerServiceApp,
} from './oauth.mjs';

const require = createRequire(import.meta.url);
const {
  createAuthServiceClient,
  createMaskingServiceClient,
  createRateLimitServiceClient,
  createFlagServiceClient,
  createEntitlementServiceClient,
  createQuotaServiceClient,
  createSecretServiceClient,
  INTERNAL_TOKEN_METADATA,
} = require('@platform/grpc');
const { CORRELATION_HEADER } = require('@platform/telemetry');
const { JobWorker, PlatformClient, ServiceTokenSource } = require('@platform/sdk');

/**
 * Jobs a pg-boss worker fetches per poll: pg-boss 10 waits its polling interval (at least 0.5 s)
 * after every fetch, so its 4 workers run at most 8 x this many jobs a second (800), above what
 * the submitters reach; one a poll, they run 8 (docs/performance.md, issue 45).
 */
const PG_BOSS_BATCH_SIZE = 100;
/**
 * Jobs each of the platform's 4 SDK workers runs at once (its `concurrency`): it claims as many
 * as it has free slots in one call, and reports those that end together in one call.
 */
const PLATFORM_WORKER_CONCURRENCY = 25;
/** How long one revocation may take to reach the second sidecar before it counts as an error. */
const PROPAGATION_TIMEOUT_MS = 5_000;

/**
 * The scenarios, in run order. Each answers result rows:
 * `{ key, label, connections?, rps, p50, p99, errors, unit?, ratios?: [{ against, value }] }`.
 * Ratios name the key of the row they compare with; report.mjs resolves them and the bars.
 */
export const scenarios = {
  /** Single-core RS256 sign and verify rates: the ceiling of issuance and of validation. */
  async limit(ctx) {
    const seconds = Math.min(ctx.options.duration, ctx.options.quick ? 1 : 3);
    ctx.progress(`RS256 sign/verify on one core (${seconds} s each)`);
    const { signPerSecond, verifyPerSecond } = measureRs256({ seconds });
    return [
      { key: 'rs256-sign', label: 'RS256 sign, 1 core (crypto.sign)', rps: signPerSecond, unit: 'ops/s' },
      {
        key: 'rs256-verify',
        label: 'RS256 verify, 1 core (crypto.verify)',
        rps: verifyPerSecond,
        unit: 'ops/s',
      },
    ];
  },

  /**
   * client_credentials + client_secret_post at our backend and at node-oidc-provider; with
   * `--databases`, also at a platform on each other database, in the same turns.
   */
  async issuance(ctx) {
    const { platform, peer, app } = ctx;
    const ours = `${platform.baseUrl}/v1/oauth/token`;
    await expectSameKindOfToken(ours, app, peer.tokenUrl, peer.client);
    const others = (await platformsOn(ctx)).slice(1);
    const floor = await startTwoHopFloor(ctx, FLOOR);
    const floorWithWrites = await startTwoHopFloor(ctx, FLOOR_WITH_WRITES);
    const [platformRow, peerRow, floorRow, floorWithWritesRow, ...otherRows] = await ctx.compare([
      { name: 'issuance: POST /v1/oauth/token (platform)', request: issuanceLoad(ours, app) },
      {
        name: 'issuance: POST /token (node-oidc-provider)',
        request: issuanceLoad(peer.tokenUrl, peer.client),
      },
      {
        name: 'issuance: two-hop floor (no framework, no database)',
        request: issuanceLoad(floor.tokenUrl, app),
      },
      {
        name: 'issuance: two-hop floor with the token writes (no framework)',
        request: issuanceLoad(floorWithWrites.tokenUrl, app),
      },
      ...others.map((other) => ({
        name: `issuance: POST /v1/oauth/token (platform${besideMain(ctx, other.database)})`,
        request: issuanceLoad(`${other.platform.baseUrl}/v1/oauth/token`, other.app),
      })),
    ]);
    const ourCpu = cpuPerRequest(platformRow, PLATFORM_PROCESSES);
    return [
      {
        key: 'issuance',
        label: 'Issuance, client_credentials (platform)',
        ...platformRow,
        ratios: [
          { against: 'issuance-peer' },
          { against: 'rs256-sign' },
          {
            against: 'issuance-floor',
            label: 'the floor’s CPU per token (lower is better)',
            value: ourCpu / cpuPerRequest(floorRow, FLOOR.processes),
          },
          {
            against: 'issuance-floor-writes',
            label: 'the CPU per token of the floor with the token writes',
            value: ourCpu / cpuPerRequest(floorWithWritesRow, FLOOR_WITH_WRITES.processes),
          },
        ],
      },
      ...others.flatMap(({ database }, i) =>
        rowsOn(ctx, database, [
          {
            key: 'issuance',
            label: `Issuance, client_credentials (platform${besideMain(ctx, database)})`,
            ...otherRows[i],
            ratios: [{ against: 'issuance-peer' }],
          },
        ]),
      ),
      {
        key: 'issuance-floor',
        label: 'Issuance floor: two Node HTTP hops and an RS256 signature',
        ...floorRow,
      },
      {
        key: 'issuance-floor-writes',
        label: 'Issuance floor with the token writes (token event, chained audit record, SQLite)',
        ...floorWithWritesRow,
      },
      {
        key: 'issuance-peer',
        label: 'Issuance, client_credentials (node-oidc-provider)',
        ...peerRow,
        ratios: [{ against: 'rs256-sign' }],
      },
    ];
  },

  /**
   * RFC 8693 token exchange beside client_credentials issuance, measured in turns on the same
   * platform: both authenticate a client and sign one token; the exchange also verifies the
   * subject token and looks up its revocations (docs/tokens.md).
   */
  async exchange(ctx) {
    const { platform, app } = ctx;
    const tokenUrl = `${platform.baseUrl}/v1/oauth/token`;
    const suffix = Date.now().toString(36);
    const audience = `https://ledger-${suffix}.bench.example`;
    await registerServiceApp(platform, `bench-ledger-${suffix}`, ['jobs.read'], { resource_uri: audience });
    const exchanger = await registerServiceApp(platform, `bench-orders-${suffix}`, ['jobs.read'], {
      token_exchange_audiences: [audience],
    });
    const subject = await issueToken(tokenUrl, app);
    const exchange = {
      url: tokenUrl,
      method: 'POST',
      headers: { 'content-type': FORM },
      body: form({
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        client_id: exchanger.clientId,
        client_secret: exchanger.clientSecret,
        subject_token: subject.access_token,
        subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        audience,
        scope: 'jobs.read',
      }),
    };
    const once = await fetch(exchange.url, exchange);
    if (once.status !== 200) throw new Error(`token exchange failed: ${once.status} ${await once.text()}`);
    ctx.progress('token exchange vs client_credentials, in turns');
    const [exchangeRow, issuanceRow] = await ctx.compare([
      { name: 'exchange: POST /v1/oauth/token, token exchange', request: exchange },
      { name: 'exchange: POST /v1/oauth/token, client_credentials', request: issuanceLoad(tokenUrl, app) },
    ]);
    return [
      {
        key: 'exchange',
        label: 'Token exchange, delegation (platform)',
        ...exchangeRow,
        ratios: [{ against: 'exchange-issuance' }],
      },
      {
        key: 'exchange-issuance',
        label: 'Issuance, client_credentials, beside the exchange',
        ...issuanceRow,
      },
    ];
  },

  /**
   * client_credentials with private_key_jwt (a new ES256 assertion per request: a signature check
   * and a shared insert of its jti, no argon2) beside client_secret_post, in turns on the same
   * platform (issue 43's bar: at least as fast).
   */
  async 'private-key-jwt'(ctx) {
    const { platform, app } = ctx;
    const tokenUrl = `${platform.baseUrl}/v1/oauth/token`;
    const clientId = `bench-pkj-${Date.now().toString(36)}`;
    const key = clientAssertionKey();
    await registerServiceApp(platform, clientId, ['jobs.read'], {
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [key.jwk] },
    });
    // Enough for the warm-up and the load at a few thousand requests a second; signed live after.
    const { warmup, duration } = ctx.options;
    const nextAssertion = assertionPool(
      key,
      clientId,
      platform.baseUrl,
      Math.min(60_000, (warmup + duration) * 2_500),
    );
    const body = () =>
      form({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: nextAssertion(),
        scope: 'jobs.read',
      });
    const once = await fetch(tokenUrl, { method: 'POST', headers: { 'content-type': FORM }, body: body() });
    if (once.status !== 200)
      throw new Error(`private_key_jwt issuance failed: ${once.status} ${await once.text()}`);
    ctx.progress('issuance with private_key_jwt vs client_secret, in turns');
    const [assertionRow, secretRow] = await ctx.compare([
      {
        name: 'issuance: POST /v1/oauth/token, private_key_jwt',
        request: {
          url: tokenUrl,
          method: 'POST',
          headers: { 'content-type': FORM },
          setupRequest: (request) => ({ ...request, body: body() }),
        },
      },
      { name: 'issuance: POST /v1/oauth/token, client_secret_post', request: issuanceLoad(tokenUrl, app) },
    ]);
    return [
      {
        key: 'issuance-private-key-jwt',
        label:
          'Issuance with private_key_jwt (client_credentials, a new ES256 assertion per request, signed ahead)',
        ...assertionRow,
        ratios: [{ against: 'issuance-client-secret' }],
      },
      {
        key: 'issuance-client-secret',
        label: 'Issuance with client_secret_post, beside private_key_jwt',
        ...secretRow,
      },
    ];
  },

  /** RFC 7522 issuance/s beside client_credentials, and the SAML signature check's cost (bench/lib/saml.mjs). */
  'saml-bearer': samlBearerScenario,
  /** Complete SP-initiated SAML sign-ins/s, the IdP's Response signed live (bench/lib/saml-login.mjs). */
  'saml-login': samlLoginScenario,

  /**
   * GET /v1/me (Bearer: the sidecar validates it once, then the backend's validation cache answers
   * while the sidecar's invalidation stream is live) against GET /v1/ping on the same stack.
   */
  async protected(ctx) {
    const { platform } = ctx;
    const token = ctx.token;
    const me = await fetch(`${platform.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    if (me.status !== 200) throw new Error(`GET /v1/me answered ${me.status} before the load`);
    // DPoP (RFC 9449): one token bound to a key of the harness, a fresh proof signed per request.
    const meUrl = `${platform.baseUrl}/v1/me`;
    const tokenUrl = `${platform.baseUrl}/v1/oauth/token`;
    const key = dpopClientKey();
    const bound = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': FORM, dpop: key.proof('POST', tokenUrl) },
      body: clientCredentialsForm(ctx.app),
    }).then((response) => response.json());
    if (bound.token_type !== 'DPoP')
      throw new Error(`a DPoP token request answered ${bound.error ?? bound.token_type}`);
    const dpopAuthorization = `DPoP ${bound.access_token}`;
    const proofs = proofPool(key, 'GET', meUrl, bound.access_token);
    const checked = await fetch(meUrl, {
      headers: { authorization: dpopAuthorization, dpop: key.proof('GET', meUrl, bound.access_token) },
    });
    if (checked.status !== 200)
      throw new Error(`GET /v1/me with DPoP answered ${checked.status} before the load`);
    const [protectedRow, dpopRow, unprotectedRow] = await ctx.compare([
      {
        name: 'protected: GET /v1/me',
        request: { url: meUrl, headers: { authorization: `Bearer ${token}` } },
      },
      {
        name: 'protected: GET /v1/me with DPoP',
        // More proofs than the fastest slice uses (Bearer on this stack: ~8,000 req/s).
        prepare: (seconds) => proofs.fill(Math.ceil(seconds * 12_000)),
        request: {
          url: meUrl,
          setupRequest: (request) => ({
            ...request,
            headers: { ...request.headers, authorization: dpopAuthorization, dpop: proofs.next() },
          }),
        },
      },
      { name: 'unprotected: GET /v1/ping', request: { url: `${platform.baseUrl}/v1/ping` } },
    ]);
    return [
      {
        key: 'protected',
        label: 'Protected GET /v1/me (Bearer, validation cache)',
        ...protectedRow,
        ratios: [{ against: 'unprotected' }, { against: 'rs256-verify' }],
      },
      {
        key: 'protected-dpop',
        label: 'Protected GET /v1/me with DPoP (one token, a new proof per request)',
        ...dpopRow,
        ratios: [{ against: 'protected' }, { against: 'unprotected' }],
      },
      { key: 'unprotected', label: 'Unprotected GET /v1/ping (same stack)', ...unprotectedRow },
    ];
  },

  /** ValidateToken straight to the sidecar over gRPC, with the backend's metadata. */
  async 'grpc-validate'(ctx) {
    const { platform } = ctx;
    const client = createAuthServiceClient(platform.sidecarAddress);
    try {
      const metadata = new grpc.Metadata();
      metadata.set(INTERNAL_TOKEN_METADATA, platform.internalToken);
      metadata.set(CORRELATION_HEADER, 'bench-validate');
      const token = ctx.token;
      const first = await validateToken(client, token, metadata);
      if (first !== grpc.status.OK)
        throw new Error(`ValidateToken answered ${grpc.status[first]} before the load`);
      const call = (done) => client.ValidateToken({ token }, metadata, (error) => done(error ?? undefined));
      const row = await ctx.measure('grpc-validate: sidecar ValidateToken', (seconds) =>
        grpcLoad({ call, concurrency: ctx.options.connections }, seconds),
      );
      return [
        {
          key: 'grpc-validate',
          label: 'Sidecar ValidateToken over gRPC (direct)',
          connections: ctx.options.connections,
          ...row,
          ratios: [{ against: 'rs256-verify' }, { against: 'grpc-floor' }],
        },
      ];
    } finally {
      client.close();
    }
  },

  /** RFC 7662 at our backend (own JWT) and at node-oidc-provider (own opaque token). */
  async introspection(ctx) {
    const { platform, peer, app } = ctx;
    const ours = `${platform.baseUrl}/v1/oauth/introspect`;
    const peerToken = (await issueToken(peer.tokenUrl, peer.opaqueClient)).access_token;
    const fields = (client, token) => ({
      token,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    for (const [url, client, token] of [
      [ours, app, ctx.token],
      [peer.introspectionUrl, peer.opaqueClient, peerToken],
    ]) {
      const { status, body } = await postForm(url, fields(client, token));
      if (status !== 200 || body?.active !== true)
        throw new Error(`${url} did not find its own token active`);
    }
    const introspect = (url, client, token) => ({
      url,
      method: 'POST',
      headers: { 'content-type': FORM },
      body: form(fields(client, token)),
    });
    const [platformRow, peerRow] = await ctx.compare([
      {
        name: 'introspection: POST /v1/oauth/introspect (platform)',
        request: introspect(ours, app, ctx.token),
      },
      {
        name: 'introspection: POST /token/introspection (node-oidc-provider)',
        request: introspect(peer.introspectionUrl, peer.opaqueClient, peerToken),
      },
    ]);
    return [
      {
        key: 'introspection',
        label: 'Introspection, own JWT (platform)',
        ...platformRow,
        ratios: [{ against: 'introspection-peer' }],
      },
      {
        key: 'introspection-peer',
        label: 'Introspection, own opaque token (node-oidc-provider)',
        ...peerRow,
      },
    ];
  },

  /**
   * Revoke through the backend, then poll the SECOND sidecar until it refuses the token; the
   * time counts from sending the revocation. Also checks that the backend's own sidecar refuses
   * the token as soon as the revocation has answered.
   */
  async revocation(ctx) {
    const { platform, secondSidecar, secondBackend } = ctx;
    const remote = createAuthServiceClient(secondSidecar.address);
    const local = createAuthServiceClient(platform.sidecarAddress);
    const me = async (token) => {
      const response = await fetch(`${secondBackend.baseUrl}/v1/me`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await response.arrayBuffer();
      return response.status;
    };
    try {
      const atSidecar = await timeRevocations(ctx, 'the second sidecar', {
        accepts: async (token) => (await validateToken(remote, token)) === grpc.status.OK,
        refuses: async (token) => (await validateToken(remote, token)) === grpc.status.UNAUTHENTICATED,
        // The backend's own sidecar refuses it as soon as the revocation has answered.
        refusedHere: async (token) => (await validateToken(local, token)) === grpc.status.UNAUTHENTICATED,
      });
      // Accepted by the second backend first, so the token is in that backend's cache.
      const atBackend = await timeRevocations(ctx, "the second backend's route", {
        accepts: async (token) => (await me(token)) === 200,
        refuses: async (token) => (await me(token)) === 401,
      });
      return [
        { key: 'revocation', label: 'Revocation reaches a second sidecar', ...atSidecar },
        {
          key: 'revocation-backend',
          label: "Revocation reaches a second backend's HTTP route",
          ...atBackend,
        },
      ];
    } finally {
      remote.close();
      local.close();
    }
  },

  /**
   * Audit records appended through the public route (backend, sidecar decision, control plane
   * chain append), on the platform of each database in turns (`--databases`); afterwards each
   * whole chain must verify.
   */
  async audit(ctx) {
    const platforms = await platformsOn(ctx);
    const loads = await Promise.all(
      platforms.map(async ({ database, platform }) => ({
        name: `audit: POST /api/v1/tenants/bench/audit/records${besideMain(ctx, database)}`,
        request: await auditAppend(platform, 'bench-audit', {
          action: 'invoice.paid',
          target: 'invoice-42',
          attributes: { amount: 12.5 },
        }),
      })),
    );
    const measured = await ctx.compare(loads);
    const rows = [];
    for (const [i, { database, platform }] of platforms.entries()) {
      const admin = await issueToken(`${platform.baseUrl}/v1/oauth/token`, platform.admin, 'admin.*');
      const verified = await fetch(`${platform.baseUrl}/api/v1/audit/verify`, {
        headers: { authorization: `Bearer ${admin.access_token}` },
      }).then((response) => response.json());
      if (verified.valid !== true)
        throw new Error(`the audit chain does not verify: ${JSON.stringify(verified)}`);
      ctx.progress(`  chain verified${besideMain(ctx, database)}: ${verified.checked} records`);
      rows.push(
        ...rowsOn(ctx, database, [
          {
            key: 'audit-append',
            label: `Audit append, REST, hash chain on ${DATABASE_NAMES[database]}`,
            ...measured[i],
            unit: 'records/s',
          },
        ]),
      );
    }
    return rows;
  },
};

/**
 * The request of an audit-append load on `platform`: `record` POSTed with the token of a writer
 * app registered for it (`name` and a stamp).
 */
async function auditAppend(platform, name, record) {
  const writer = await registerServiceApp(platform, `${name}-${Date.now().toString(36)}`, ['audit.write']);
  const token = (await issueToken(`${platform.baseUrl}/v1/oauth/token`, writer, 'audit.write')).access_token;
  return {
    url: `${platform.baseUrl}/api/v1/tenants/bench/audit/records`,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(record),
  };
}

/**
 * Webhook deliveries to a local receiver (204 at once): one endpoint, then ten, subscribed to the
 * records an audit-append load writes. Judged in steady state, over the load's measured time
 * (after its warm-up): the deliveries that arrived then, per endpoint, beside the records written
 * then, and the latency, from a record's time to its arrival, of the records written then. A
 * dispatcher that keeps up delivers as fast as the records come; one that falls behind delivers
 * at its own pace while its backlog and latency grow. With `--databases`, on the platform of each
 * database in turn.
 */
scenarios.webhooks = async function webhooks(ctx) {
  const rows = [];
  for (const { database, platform } of await platformsOn(ctx)) {
    for (const endpoints of [1, 10]) {
      rows.push(
        ...rowsOn(ctx, database, await webhooksOn(ctx, platform, besideMain(ctx, database), endpoints)),
      );
    }
  }
  return rows;
};

/**
 * The webhooks scenario's rows on `platform` with `count` endpoints on one receiver (`where`: its
 * database, unless it is the main one). Keys `webhook-append` and `webhook-deliveries`, suffixed
 * `-<count>` beyond one endpoint.
 */
async function webhooksOn(ctx, platform, where, count) {
  const arrivals = [];
  const receiver = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      arrivals.push({
        at: Date.now(),
        written: Date.parse(timestamp),
        id: `${request.url} ${request.headers['webhook-id']}`,
      });
      response.writeHead(204).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const admin = (await issueToken(`${platform.baseUrl}/v1/oauth/token`, platform.admin, 'admin.*'))
    .access_token;
  const api = (method, path, body) =>
    fetch(`${platform.baseUrl}/api/v1/webhooks${path}`, {
      method,
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    }).then(async (response) => (response.status === 204 ? undefined : response.json()));
  const endpoints = [];
  for (let i = 0; i < count; i++) {
    endpoints.push(
      await api('POST', '', {
        url: `http://127.0.0.1:${receiver.address().port}/hooks/${i}`,
        event_types: ['bench.*'],
      }),
    );
  }
  const subscribed = count === 1 ? 'one endpoint' : `${count} endpoints`;
  const suffix = count === 1 ? '' : `-${count}`;
  try {
    const request = await auditAppend(platform, 'bench-webhooks', {
      action: 'bench.delivered',
      target: 'invoice-42',
    });
    let window;
    const written = {
      connections: ctx.options.connections,
      ...(await ctx.measure(
        `webhooks: audit append with ${subscribed} subscribed${where}`,
        async (seconds) => {
          const from = Date.now();
          const result = await httpLoad({ ...request, connections: ctx.options.connections }, seconds);
          window = { from, to: Date.now() }; // the last call is the measured one
          return result;
        },
      )),
    };
    ctx.progress('  waiting for the deliveries to drain');
    for (let quiet = 0; quiet < 4;) {
      const before = arrivals.length;
      await new Promise((resolve) => setTimeout(resolve, 500));
      let pending = 0;
      for (const endpoint of endpoints)
        pending += (await api('GET', `/${endpoint.id}/deliveries?state=pending&limit=1`)).deliveries.length;
      quiet = arrivals.length === before && pending === 0 ? quiet + 1 : 0;
    }
    const within = (t) => t >= window.from && t < window.to;
    const seconds = (window.to - window.from) / 1000;
    const rps = arrivals.filter((a) => within(a.at)).length / seconds / count;
    const latencies = arrivals
      .filter((a) => within(a.written))
      .map((a) => a.at - a.written)
      .sort((a, b) => a - b);
    const duplicates = arrivals.length - new Set(arrivals.map((a) => a.id)).size;
    const span = (arrivals.at(-1).at - arrivals[0].at) / 1000;
    ctx.progress(
      `  ${arrivals.length} deliveries in all (${duplicates} duplicates), ${Math.round(arrivals.length / span)}/s from the first to the last, the last ${((arrivals.at(-1).at - window.to) / 1000).toFixed(1)} s after the load; ` +
        `while measured ${Math.round(rps * count)}/s (${Math.round(rps)}/s per endpoint), latency p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms`,
    );
    return [
      {
        key: `webhook-append${suffix}`,
        label: `Audit append with ${subscribed} subscribed${where}`,
        ...written,
        unit: 'records/s',
      },
      {
        key: `webhook-deliveries${suffix}`,
        label: `Webhook deliveries to a local receiver${count === 1 ? '' : ', per endpoint'} (${count === 1 ? '1 endpoint' : `${count} endpoints`}, 32 in flight each)${where}`,
        rps,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        errors: duplicates,
        unit: 'deliveries/s',
        ratios: [{ against: `webhook-append${suffix}` }],
      },
    ];
  } finally {
    for (const endpoint of endpoints) await api('DELETE', `/${endpoint.id}`);
    receiver.close();
  }
}

/**
 * SCIM provisioning as an identity provider drives it: users created, then looked up by
 * `userName eq` (what every provider sends before it creates or updates) among the ones created,
 * and changed by PATCH. The platform's own figures: no peer serves SCIM.
 */
scenarios.scim = async function scim(ctx) {
  const { platform } = ctx;
  const app = await registerServiceApp(platform, `bench-scim-${Date.now().toString(36)}`, [
    'scim.read',
    'scim.write',
  ]);
  const token = (await issueToken(`${platform.baseUrl}/v1/oauth/token`, app, 'scim.read scim.write'))
    .access_token;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' };
  const users = `${platform.baseUrl}/scim/v2/Users`;
  const run = Date.now().toString(36);
  let created = 0;
  const provisioned = await ctx.load('scim: POST /scim/v2/Users (a new user each time)', {
    url: users,
    method: 'POST',
    headers,
    setupRequest: (request) => ({
      ...request,
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: `user-${run}-${created++}@bench.example`,
        name: { givenName: 'Bench', familyName: `User ${created}` },
        emails: [{ value: `user-${run}-${created}@bench.example`, type: 'work', primary: true }],
      }),
    }),
  });
  const known = Math.max(1, created - 1);
  const pick = () => Math.floor(Math.random() * known);
  const lookups = await ctx.load(
    `scim: GET /Users?filter=userName eq (among ${known.toLocaleString('en-US')})`,
    {
      url: users,
      headers,
      setupRequest: (request) => ({
        ...request,
        path: `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "USER-${run}-${pick()}@bench.example"`)}`,
      }),
    },
  );
  const ids = [];
  for (let i = 0; i < Math.min(known, 200); i++) {
    const query = encodeURIComponent(`userName eq "user-${run}-${i}@bench.example"`);
    const found = await (await fetch(`${users}?filter=${query}`, { headers })).json();
    if (found.Resources?.[0]) ids.push(found.Resources[0].id);
  }
  let patches = 0;
  const changed = await ctx.load(`scim: PATCH /Users/{id} (${ids.length} users, no If-Match)`, {
    url: users,
    method: 'PATCH',
    headers,
    setupRequest: (request) => ({
      ...request,
      path: `/scim/v2/Users/${ids[patches++ % ids.length]}`,
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'title', value: `title ${patches}` }],
      }),
    }),
  });
  return [
    {
      key: 'scim-create',
      label: 'SCIM: provision a user (POST /scim/v2/Users)',
      ...provisioned,
      unit: 'users/s',
    },
    {
      key: 'scim-lookup',
      label: 'SCIM: find a user by userName (the identity providers’ lookup)',
      ...lookups,
    },
    { key: 'scim-patch', label: 'SCIM: PATCH a user (replace one attribute)', ...changed },
  ];
};

/**
 * MaskString on a 4 KiB log-like text holding a few of every entity, at the sidecar over gRPC:
 * calls/s and MB/s of text masked (issue 12).
 */
scenarios.masking = async function masking(ctx) {
  const { platform } = ctx;
  const client = createMaskingServiceClient(platform.sidecarAddress);
  const line =
    '2024-05-12T10:00:00Z order 123456 by ada@example.com from 192.168.10.24, card 4111 1111 1111 1111, ' +
    'call +44 20 7946 0958, IBAN DE89 3704 0044 0532 0130 00, Authorization: Bearer abcdefghij0123456789\n';
  const text = line.repeat(Math.ceil(4096 / line.length)).slice(0, 4096);
  const token = await serviceToken(platform, 'masking', 'masking.apply');
  const request = { token, text, options: { operators: { DEFAULT: { type: 'hash' } } } };
  try {
    const first = await new Promise((resolve) =>
      client.MaskString(request, (error, answer) => resolve(error ?? answer)),
    );
    if (first instanceof Error) throw new Error(`MaskString answered ${first.message} before the load`);
    const call = (done) => client.MaskString(request, (error) => done(error ?? undefined));
    const row = await ctx.measure('masking: sidecar MaskString, 4 KiB text', (seconds) =>
      grpcLoad({ call, concurrency: ctx.options.connections }, seconds),
    );
    const megabytes = (row.rps * Buffer.byteLength(text)) / (1024 * 1024);
    ctx.progress(`  ${megabytes.toFixed(1)} MB/s of text masked (${first.items.length} entities per call)`);
    return [
      {
        key: 'masking',
        label: `Sidecar MaskString over gRPC, 4 KiB text, ${first.items.length} entities hashed: ${megabytes.toFixed(1)} MB/s`,
        connections: ctx.options.connections,
        ...row,
        unit: 'calls/s',
      },
    ];
  } finally {
    client.close();
  }
};

/** The bare grpc-js echo the sidecar's RPC rows are compared with (issue 45). */
scenarios['grpc-floor'] = grpcFloor;

/**
 * CheckRateLimit at the sidecar over gRPC, counting in memory and (a second sidecar started with
 * RATE_LIMIT_REDIS_URL) in Redis: calls/s and latency, each call one descriptor of 1,000 addresses
 * under a limit high enough never to refuse (issue 12).
 */
scenarios['rate-limit'] = async function rateLimit(ctx) {
  const { platform } = ctx;
  const admin = (await issueToken(`${platform.baseUrl}/v1/oauth/token`, platform.admin, 'admin.*'))
    .access_token;
  const put = await fetch(`${platform.baseUrl}/api/v1/tenants/default/rate-limits/bench`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      descriptors: [
        { key: 'remote_address', rate_limit: { unit: 'second', requests_per_unit: 1_000_000_000 } },
      ],
    }),
  });
  if (put.status !== 200) throw new Error(`rate limit rules: ${put.status}`);
  const redisUrl = process.env.RATE_LIMIT_REDIS_URL ?? 'redis://127.0.0.1:6379';
  ctx.progress(`starting a sidecar counting in Redis (${new URL(redisUrl).host})`);
  const redisSidecar = await startExtraSidecar(platform, { RATE_LIMIT_REDIS_URL: redisUrl });
  ctx.processes.push({ process: 'sidecar-redis', healthyMs: redisSidecar.healthyMs });
  ctx.sampler.add('sidecar-redis', redisSidecar.pid);
  const token = await serviceToken(platform, 'rate-limit', 'ratelimit.check');
  const rows = [];
  for (const [key, where, address] of [
    ['rate-limit-memory', 'in memory', platform.sidecarAddress],
    ['rate-limit-redis', 'in Redis', redisSidecar.address],
  ]) {
    const client = createRateLimitServiceClient(address);
    try {
      let n = 0;
      const request = () => ({
        token,
        tenant: 'default',
        domain: 'bench',
        descriptors: [{ entries: [{ key: 'remote_address', value: `10.0.${n % 4}.${n++ % 250}` }] }],
      });
      const answer = async () =>
        new Promise((resolve, reject) =>
          client.CheckRateLimit(request(), (error, response) => (error ? reject(error) : resolve(response))),
        );
      const ruled = await pollUntil(
        async () => (await answer()).statuses[0].current_limit !== null,
        PROPAGATION_TIMEOUT_MS,
      );
      if (ruled === undefined) throw new Error(`the rules did not reach the sidecar ${where}`);
      const call = (done) =>
        client.CheckRateLimit(request(), (error, response) =>
          done(error ?? (response.overall_code === 'OK' ? undefined : new Error(response.overall_code))),
        );
      const row = await ctx.measure(`rate-limit: sidecar CheckRateLimit, counters ${where}`, (seconds) =>
        grpcLoad({ call, concurrency: ctx.options.connections }, seconds),
      );
      rows.push({
        key,
        label: `Sidecar CheckRateLimit over gRPC, counters ${where}`,
        connections: ctx.options.connections,
        ...row,
        unit: 'calls/s',
        ratios: [{ against: 'grpc-floor' }],
      });
    } finally {
      client.close();
    }
  }
  return [...rows, ...(await backendLimitCost(ctx, redisUrl))];
};

/**
 * What the backend's own limits on its token endpoint cost issuance (issue 12's bar: under 10%):
 * the platform's backend (limits on, in memory: the default) beside two more backends on the same
 * sidecar and control plane, one with every limit off and one counting in Redis, each warmed as
 * long as it is measured, measured in turns.
 */
async function backendLimitCost(ctx, redisUrl) {
  const { platform, app, sampler } = ctx;
  const variants = [
    ['issuance-limits-off', 'off', { ...Object.fromEntries(LIMIT_VARIABLES.map((name) => [name, '0'])) }],
    ['issuance-limits-redis', 'in Redis', { RATE_LIMIT_REDIS_URL: redisUrl }],
  ];
  const backends = {};
  for (const [key, where, env] of variants) {
    ctx.progress(`starting a backend with its rate limits ${where}`);
    const backend = await startExtraBackend(platform, { address: platform.sidecarAddress }, env);
    ctx.processes.push({ process: `backend (limits ${where})`, healthyMs: backend.healthyMs });
    sampler.add(`backend (limits ${where})`, backend.pid);
    await httpLoad(
      { ...issuanceLoad(`${backend.baseUrl}/v1/oauth/token`, app), connections: ctx.options.connections },
      ctx.options.warmup + ctx.options.duration,
    );
    backends[key] = backend;
  }
  sampler.idle();
  const measured = (name, baseUrl) => ({ name, request: issuanceLoad(`${baseUrl}/v1/oauth/token`, app) });
  const [off, memory, redis] = await ctx.compare([
    measured('issuance, backend rate limits off', backends['issuance-limits-off'].baseUrl),
    measured('issuance, backend rate limits in memory', platform.baseUrl),
    measured('issuance, backend rate limits in Redis', backends['issuance-limits-redis'].baseUrl),
  ]);
  return [
    { key: 'issuance-limits-off', label: 'Issuance, the backend’s rate limits off', ...off },
    {
      key: 'issuance-limits-memory',
      label: 'Issuance, the backend’s rate limits counted in memory (the default)',
      ...memory,
      ratios: [{ against: 'issuance-limits-off' }],
    },
    {
      key: 'issuance-limits-redis',
      label: 'Issuance, the backend’s rate limits counted in Redis (same machine)',
      ...redis,
      ratios: [{ against: 'issuance-limits-off' }],
    },
  ];
}

/** The backend's limits (docs/rate-limits.md); `0` turns each off. */
const LIMIT_VARIABLES = [
  'RATE_LIMIT_CLIENT_PER_MINUTE',
  'RATE_LIMIT_ADDRESS_PER_MINUTE',
  'RATE_LIMIT_FAILED_AUTH_PER_CLIENT',
  'RATE_LIMIT_FAILED_AUTH_PER_ADDRESS',
];

/**
 * EvaluateFlag at the sidecar over gRPC: a flag with JsonLogic targeting (roles, then a
 * fractional split by the subject) evaluated by flagd-core for a token holding flags.read (issue 12).
 */
scenarios.flags = async function flags(ctx) {
  const { platform } = ctx;
  const admin = (await issueToken(`${platform.baseUrl}/v1/oauth/token`, platform.admin, 'admin.*'))
    .access_token;
  const put = await fetch(`${platform.baseUrl}/api/v1/tenants/default/flags`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      flags: {
        'new-checkout': {
          state: 'ENABLED',
          variants: { on: true, off: false },
          defaultVariant: 'off',
          targeting: {
            if: [
              { in: ['tenant_admin', { var: 'roles' }] },
              'on',
              {
                fractional: [
                  ['on', 25],
                  ['off', 75],
                ],
              },
            ],
          },
        },
      },
    }),
  });
  if (put.status !== 200) throw new Error(`flag definitions: ${put.status}`);
  const client = createFlagServiceClient(platform.sidecarAddress);
  try {
    const request = {
      token: await serviceToken(platform, 'flags', 'flags.read'),
      tenant: 'default',
      flag_key: 'new-checkout',
      type: 'boolean',
      default_value: { bool_value: false },
    };
    const answer = () =>
      new Promise((resolve, reject) =>
        client.EvaluateFlag(request, (error, response) => (error ? reject(error) : resolve(response))),
      );
    const ready = await pollUntil(
      async () => (await answer()).reason === 'TARGETING_MATCH',
      PROPAGATION_TIMEOUT_MS,
    );
    if (ready === undefined) throw new Error('the flag definitions did not reach the sidecar');
    const call = (done) =>
      client.EvaluateFlag(request, (error, response) =>
        done(error ?? (response.reason === 'TARGETING_MATCH' ? undefined : new Error(response.reason))),
      );
    const row = await ctx.measure('flags: sidecar EvaluateFlag (targeting + fractional)', (seconds) =>
      grpcLoad({ call, concurrency: ctx.options.connections }, seconds),
    );
    return [
      {
        key: 'flags',
        label: 'Sidecar EvaluateFlag over gRPC (JsonLogic targeting, fractional split)',
        connections: ctx.options.connections,
        ...row,
        unit: 'calls/s',
        ratios: [{ against: 'grpc-floor' }],
      },
    ];
  } finally {
    client.close();
  }
};

/**
 * The per-tenant quota service (issue 40, docs/plans.md). The platform's own `tokens_issued`
 * meter: issuance for an app of a tenant whose plan has a quota on it (soft, never reached)
 * against an app of a tenant with no plan, on the same platform, measured in turns (bar: 0.9x).
 */
scenarios.quotas = async function quotas(ctx) {
  const { platform } = ctx;
  const put = await adminPut(platform);
  const suffix = Date.now().toString(36);
  await put('/plans/bench-metered', {
    features: { sso: true, seats: 50 },
    quotas: { tokens_issued: { limit: 1_000_000_000_000, period: 'month', enforcement: 'soft' } },
  });
  await put('/tenants/bench-metered/subscription', {
    assignments: [{ plan: 'bench-metered', from: '2026-01-01T00:00:00Z' }],
  });
  const metered = await registerServiceApp(platform, `bench-metered-${suffix}`, ['jobs.read'], {
    tenant: 'bench-metered',
  });
  const unmetered = await registerServiceApp(platform, `bench-unmetered-${suffix}`, ['jobs.read'], {
    tenant: 'bench-unmetered',
  });
  const tokenUrl = `${platform.baseUrl}/v1/oauth/token`;
  const [off, on] = await ctx.compare([
    { name: 'issuance, tenant without a quota', request: issuanceLoad(tokenUrl, unmetered) },
    { name: 'issuance, tenant with a tokens_issued quota', request: issuanceLoad(tokenUrl, metered) },
  ]);
  const metering = [
    { key: 'issuance-unmetered', label: 'Issuance, an app of a tenant without a quota', ...off },
    {
      key: 'issuance-metered',
      label: 'Issuance, an app of a tenant with a tokens_issued quota (counted in the database)',
      ...on,
      ratios: [{ against: 'issuance-unmetered' }],
    },
  ];
  return [...metering, ...(await quotaServiceRows(ctx))];
};

/**
 * The sidecar's EntitlementService and QuotaService over gRPC: CheckEntitlement answered from
 * memory; ConsumeQuota counted by the control plane's database (the default) and, at a second
 * sidecar, in Redis (one script a call; the journal's drain into the database is the control
 * plane's and is not in this row). Each consumption is under a limit never reached.
 */
async function quotaServiceRows(ctx) {
  const { platform } = ctx;
  const redisUrl = process.env.QUOTA_REDIS_URL ?? 'redis://127.0.0.1:6379';
  ctx.progress(`starting a sidecar counting quotas in Redis (${new URL(redisUrl).host})`);
  const redisSidecar = await startExtraSidecar(platform, {
    QUOTA_REDIS_URL: redisUrl,
    QUOTA_REDIS_PREFIX: `bench-${Date.now().toString(36)}`,
  });
  ctx.processes.push({ process: 'sidecar-quota-redis', healthyMs: redisSidecar.healthyMs });
  ctx.sampler.add('sidecar-quota-redis', redisSidecar.pid);
  const app = await registerServiceApp(
    platform,
    `bench-quota-${Date.now().toString(36)}`,
    ['entitlements.read', 'quotas.consume'],
    {
      tenant: 'bench-metered',
    },
  );
  const token = (
    await issueToken(`${platform.baseUrl}/v1/oauth/token`, app, 'entitlements.read quotas.consume')
  ).access_token;
  const unary = (client, method, request, accept) => (done) =>
    client[method](request, (error, response) =>
      done(error ?? (accept(response) ? undefined : new Error(method))),
    );
  const entitlements = createEntitlementServiceClient(platform.sidecarAddress);
  const rows = [];
  try {
    const check = unary(
      entitlements,
      'CheckEntitlement',
      { token, feature: 'seats', amount: 10 },
      (r) => r.entitled,
    );
    const ready = await pollUntil(
      () => new Promise((resolve) => check((error) => resolve(!error))),
      PROPAGATION_TIMEOUT_MS,
    );
    if (ready === undefined) throw new Error('the plan did not reach the sidecar');
    const row = await ctx.measure('quotas: sidecar CheckEntitlement', (seconds) =>
      grpcLoad({ call: check, concurrency: ctx.options.connections }, seconds),
    );
    rows.push({
      key: 'check-entitlement',
      label: 'Sidecar CheckEntitlement over gRPC (from memory)',
      connections: ctx.options.connections,
      ...row,
      unit: 'calls/s',
      ratios: [{ against: 'grpc-floor' }],
    });
  } finally {
    entitlements.close();
  }
  for (const [key, where, address] of [
    ['consume-quota-database', 'counted by the control plane (database)', platform.sidecarAddress],
    ['consume-quota-redis', 'counted in Redis', redisSidecar.address],
  ]) {
    const client = createQuotaServiceClient(address);
    try {
      const consume = unary(
        client,
        'ConsumeQuota',
        { token, meter: 'tokens_issued', units: 1 },
        (r) => r.limited && r.granted,
      );
      const row = await ctx.measure(`quotas: sidecar ConsumeQuota, ${where}`, (seconds) =>
        grpcLoad({ call: consume, concurrency: ctx.options.connections }, seconds),
      );
      rows.push({
        key,
        label: `Sidecar ConsumeQuota over gRPC, ${where}`,
        connections: ctx.options.connections,
        ...row,
        unit: 'calls/s',
        ratios: [{ against: 'grpc-floor' }],
      });
    } finally {
      client.close();
    }
  }
  return rows;
}

/**
 * ResolveSecret at the sidecar over gRPC (issue 13): each call is authorized by the policy
 * service, reaches the control plane, opens the sealed value (unwrap + AES-256-GCM) and appends
 * an audit record before answering; nothing is cached (docs/secrets.md).
 */
scenarios.secrets = async function secrets(ctx) {
  const { platform } = ctx;
  const tokenUrl = `${platform.baseUrl}/v1/oauth/token`;
  const app = await registerServiceApp(platform, `bench-secrets-${Date.now().toString(36)}`, [
    'secrets.read',
    'secrets.write',
  ]);
  const token = (await issueToken(tokenUrl, app, 'secrets.read secrets.write')).access_token;
  const write = await fetch(`${platform.baseUrl}/api/v1/tenants/bench/secrets/db-password`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ value: 'a-database-password-of-32-bytes!' }),
  });
  if (write.status !== 200) throw new Error(`secret write: ${write.status}`);
  const client = createSecretServiceClient(platform.sidecarAddress);
  try {
    const request = { token, reference: 'secret://bench/db-password' };
    const call = (done) =>
      client.ResolveSecret(request, (error, response) =>
        done(error ?? (response.version === 1 ? undefined : new Error(`version ${response.version}`))),
      );
    const row = await ctx.measure('secrets: sidecar ResolveSecret (policy, open, audit)', (seconds) =>
      grpcLoad({ call, concurrency: ctx.options.connections }, seconds),
    );
    return [
      {
        key: 'secrets',
        label:
          'Sidecar ResolveSecret over gRPC (policy decision, control plane opens the value, read audited)',
        connections: ctx.options.connections,
        ...row,
        unit: 'calls/s',
      },
    ];
  } finally {
    client.close();
  }
};

/**
 * The job queue end to end (issue 13) beside pg-boss and graphile-worker (issue 45): the same
 * jobs (a `{ n }` payload, a handler that does nothing) through the platform, submitted over
 * REST in batches (as every queue here submits them: SUBMISSION_BATCH a call) and run by 4 SDK
 * JobWorkers (long-poll claims of up to their free slots, completions reported together), on the
 * main platform and on one on Postgres (the peers' database), and through the two peers with 4
 * workers each on scratch databases of the same Postgres, every queue's workers in the harness's
 * process (bench/lib/job-peers.mjs). Rows per queue: jobs/s from the first submission to the last
 * completion, measured in turns; and submission to start with the workers idle.
 */
scenarios.jobs = async function jobs(ctx) {
  // A hundred jobs per second of the run's duration: 1,500 in a full run, 500 quick.
  const count = ctx.options.duration * 100;
  const idleCount = Math.max(5, ctx.options.duration * 3);
  const platforms = await platformsOn(ctx, ['postgres']);
  const queues = await Promise.all(platforms.map(platformJobQueue));
  queues.push(await pgBossQueue(await scratchDatabase('pg_boss'), { batchSize: PG_BOSS_BATCH_SIZE }));
  queues.push(await graphileWorkerQueue(await scratchDatabase('graphile_worker')));
  try {
    const watched = [];
    for (const queue of queues) watched.push(await started(queue));
    const throughput = await jobsInTurns(ctx, watched, count);
    const idle = [];
    for (const queue of watched) {
      ctx.progress(`  ${queue.queue.name}: ${idleCount} jobs one at a time, the workers idle`);
      idle.push(await idleStart(queue, idleCount));
    }
    const idleLabel = (what) => `Job submission to its handler's start, workers idle (${what})`;
    const platformRows = platforms.flatMap(({ database }, i) =>
      rowsOn(ctx, database, [
        {
          key: 'jobs',
          label: `Jobs from submission to SUCCEEDED, ${SUBMISSION_BATCH} a submission, 4 SDK workers (${PLATFORM_WORKER_CONCURRENCY} at once each), ${DATABASE_NAMES[database]} (${count} jobs)`,
          ...throughput[i],
          ratios:
            database === 'postgres' ? [{ against: 'jobs-pg-boss' }, { against: 'jobs-graphile-worker' }] : [],
        },
        {
          key: 'jobs-idle-start',
          label: idleLabel(`platform, ${DATABASE_NAMES[database]}`),
          ...idle[i],
          unit: 'jobs',
        },
      ]),
    );
    const peer = platforms.length;
    return [
      ...platformRows,
      {
        key: 'jobs-pg-boss',
        label: `Jobs from submission to completed, ${SUBMISSION_BATCH} a submission, pg-boss 10.4.2 (4 workers, up to ${PG_BOSS_BATCH_SIZE} a poll)`,
        ...throughput[peer],
      },
      { key: 'jobs-idle-start-pg-boss', label: idleLabel('pg-boss'), ...idle[peer], unit: 'jobs' },
      {
        key: 'jobs-graphile-worker',
        label: `Jobs from submission to completed, ${SUBMISSION_BATCH} a submission, graphile-worker 0.17.3 (4 workers)`,
        ...throughput[peer + 1],
      },
      {
        key: 'jobs-idle-start-graphile-worker',
        label: idleLabel('graphile-worker'),
        ...idle[peer + 1],
        unit: 'jobs',
      },
    ];
  } finally {
    await Promise.all(queues.map((queue) => queue.stop()));
  }
};

/**
 * The platform as a job queue for job-peers.mjs: a submitter and a worker app registered, jobs
 * submitted over REST; its record of a job's end is the SUCCEEDED list (`finished_at` less
 * `created_at`, the control plane's clock).
 */
async function platformJobQueue({ database, platform }) {
  const tokenUrl = `${platform.baseUrl}/v1/oauth/token`;
  const stamp = Date.now().toString(36);
  const submitter = await registerServiceApp(platform, `bench-jobs-${stamp}`, ['jobs.read', 'jobs.write']);
  const worker = await registerServiceApp(platform, `bench-worker-${stamp}`, ['jobs.work']);
  const token = (await issueToken(tokenUrl, submitter, 'jobs.read jobs.write')).access_token;
  const tokens = new ServiceTokenSource({ baseUrl: platform.baseUrl, ...worker, scope: 'jobs.work' });
  const client = new PlatformClient({ baseUrl: platform.baseUrl, tokens });
  const jobsUrl = `${platform.baseUrl}/api/v1/tenants/bench/jobs`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const succeeded = async () => {
    const jobs = [];
    for (let after = ''; ;) {
      const page = await (
        await fetch(`${jobsUrl}?state=SUCCEEDED&limit=1000${after && `&after=${after}`}`, { headers })
      ).json();
      jobs.push(...page.jobs);
      if (!page.next_after) return jobs;
      after = page.next_after;
    }
  };
  let workers = [];
  return {
    name: `platform on ${DATABASE_NAMES[database]}`,
    start(onJob) {
      workers = Array.from(
        { length: WORKERS },
        () =>
          new JobWorker(client, {
            types: [JOB_TYPE],
            concurrency: PLATFORM_WORKER_CONCURRENCY,
            handler: async (payload) => onJob(payload),
          }),
      );
      for (const w of workers) w.start();
    },
    async submit(payload) {
      const response = await fetch(jobsUrl, {
        method: 'POST',
        headers,
        body: JSON.stringify({ type: JOB_TYPE, payload }),
      });
      await response.arrayBuffer();
      return response.status === 201;
    },
    async submitMany(payloads) {
      const response = await fetch(`${jobsUrl}/batch`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jobs: payloads.map((payload) => ({ type: JOB_TYPE, payload })) }),
      });
      if (response.status !== 200) {
        await response.arrayBuffer();
        return 0;
      }
      const { results } = await response.json();
      return results.filter((result) => result.created === true).length;
    },
    completed: async () => (await succeeded()).length,
    latencies: async () =>
      (await succeeded()).map((job) => Date.parse(job.finished_at) - Date.parse(job.created_at)),
    stop: () => Promise.all(workers.map((w) => w.stop())),
  };
}

/**
 * The protected request at scale (issue 15): `--tokens` distinct tokens, drawn uniformly and with
 * a Zipf skew, against the unprotected route and against a resource server verifying the same
 * tokens locally with jose (no revocation); and the first-sight latency of a token never seen.
 */
scenarios['many-tokens'] = async function manyTokens(ctx) {
  const { platform, app } = ctx;
  const tokenUrl = `${platform.baseUrl}/v1/oauth/token`;
  ctx.progress(`  issuing ${ctx.options.tokens} tokens`);
  const tokens = await issueMany(tokenUrl, app, ctx.options.tokens, ctx.options.connections);
  const fresh = await issueMany(tokenUrl, app, 200, 16);
  await settled(ctx, 'control-plane');
  const jose = await startJoseServer(platform.baseUrl);
  try {
    const draw = { uniform: () => tokens[Math.floor(Math.random() * tokens.length)], zipf: zipfDraw(tokens) };
    const withToken = (pick) => (request) => ({
      ...request,
      headers: { ...request.headers, authorization: `Bearer ${pick()}` },
    });
    const me = `${platform.baseUrl}/v1/me`;
    // Every token once, in order, before the loads below: they measure the steady state of a
    // platform whose 100,000 tokens are each used many times in their hour, as real ones are,
    // not how far a run's warm-up got through them. This pass is its own row: every request a
    // first sight, at full load.
    let next = 0;
    const firstPass = await ctx.pass(`many-tokens: GET /v1/me, each of ${tokens.length} tokens once`, {
      url: me,
      setupRequest: withToken(() => tokens[next++ % tokens.length]),
      amount: tokens.length,
    });
    const [uniform, zipf, local, unprotected] = await ctx.compare([
      {
        name: `many-tokens: GET /v1/me, ${tokens.length} tokens`,
        request: { url: me, setupRequest: withToken(draw.uniform) },
      },
      {
        name: 'many-tokens: GET /v1/me, Zipf-skewed',
        request: { url: me, setupRequest: withToken(draw.zipf) },
      },
      {
        name: 'many-tokens: local jose resource server',
        request: { url: `${jose.url}/`, setupRequest: withToken(draw.uniform) },
      },
      { name: 'many-tokens: unprotected GET /v1/ping', request: { url: `${platform.baseUrl}/v1/ping` } },
    ]);
    // First sight: one request at a time, each with a token the platform never validated.
    const times = [];
    for (const token of fresh) {
      const started = performance.now();
      const response = await fetch(`${platform.baseUrl}/v1/me`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`first-sight GET /v1/me answered ${response.status}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const label = `${tokens.length.toLocaleString('en-US')} tokens`;
    return [
      { key: 'many-unprotected', label: 'Unprotected GET /v1/ping (many-tokens run)', ...unprotected },
      { key: 'many-jose', label: `Local jose resource server, ${label}, no revocation`, ...local },
      {
        key: 'many-tokens-first-pass',
        label: `Protected GET /v1/me, each of the ${label} for the first time`,
        ...firstPass,
        ratios: [{ against: 'many-jose' }],
      },
      {
        key: 'many-tokens',
        label: `Protected GET /v1/me, ${label} drawn uniformly`,
        ...uniform,
        ratios: [{ against: 'many-unprotected' }, { against: 'many-jose' }],
      },
      {
        key: 'many-tokens-zipf',
        label: `Protected GET /v1/me, ${label}, Zipf-skewed`,
        ...zipf,
        ratios: [{ against: 'many-unprotected' }, { against: 'many-jose' }],
      },
      {
        key: 'first-sight',
        label: 'First-sight GET /v1/me (a token never seen), one at a time',
        rps: null,
        p50: round(percentile(times, 50)),
        p99: round(percentile(times, 99)),
        errors: 0,
        count: times.length,
        unit: 'requests',
      },
    ];
  } finally {
    jose.stop();
  }
};

const round = (ms) => Math.round(ms * 100) / 100;

const PLATFORM_PROCESSES = ['backend', 'control-plane', 'sidecar'];
/** The two floors of issuance: the bare one, and one that also writes what a token must leave. */
const FLOOR = { prefix: 'floor', args: [], processes: ['floor backend', 'floor control plane'] };
const FLOOR_WITH_WRITES = {
  prefix: 'floor+writes',
  args: ['--writes'],
  processes: ['floor+writes backend', 'floor+writes control plane'],
};

/** CPU microseconds per request the named processes used together during a measured load. */
function cpuPerRequest(row, processes) {
  const percent = processes.reduce((sum, name) => sum + (row.cpu[name] ?? 0), 0);
  return (percent / 100) * (1e6 / row.rps);
}

/**
 * The floor of issuance in the platform's layout (bench/experiments/two-hop-floor.mjs): a
 * "backend" relaying the form with undici to a "control plane" that signs with crypto.sign, no
 * framework, no client check, and with FLOOR_WITH_WRITES the token event and chained audit
 * record in SQLite. Both processes are watched by the sampler.
 */
async function startTwoHopFloor(ctx, { prefix, args: controlPlaneArgs }) {
  const script = fileURLToPath(new URL('../experiments/two-hop-floor.mjs', import.meta.url));
  const start = (name, args) =>
    new Promise((resolve, reject) => {
      const child = track(fork(script, args, { stdio: 'ignore' }));
      onCleanup(() => child.kill());
      child.once('error', reject);
      child.once('message', (port) => {
        ctx.sampler.add(name, child.pid);
        resolve(port);
      });
    });
  const controlPlanePort = await start(`${prefix} control plane`, [
    '--role',
    'control-plane',
    ...controlPlaneArgs,
  ]);
  const backendPort = await start(`${prefix} backend`, [
    '--role',
    'backend',
    '--upstream',
    String(controlPlanePort),
  ]);
  ctx.sampler.idle();
  return { tokenUrl: `http://127.0.0.1:${backendPort}/token` };
}

/** The issuance load: client_credentials with the secret in the body, one scope. */
function issuanceLoad(tokenUrl, client) {
  return {
    url: tokenUrl,
    method: 'POST',
    headers: { 'content-type': FORM },
    body: clientCredentialsForm(client),
  };
}

/**
 * Issuance with OpenTelemetry tracing on (every span batched and exported over OTLP/HTTP JSON to a
 * sink in the harness, which reads and drops them) against the same load with it off, each on a
 * platform of its own started for this comparison: the same age, the same empty database and the
 * same warm-up, measured in turns so the two share the machine's conditions. (Comparing with the
 * main platform compared a fresh database with one that had stored every earlier scenario.)
 */
scenarios.tracing = async function tracing(ctx) {
  const { sampler } = ctx;
  let spans = 0;
  const sink = createServer((request, response) => {
    request.on('data', () => {});
    request.on('end', () => {
      spans += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const fresh = async (label, env) => {
    const platform = await startPlatform({ cpuProfDir: ctx.options.cpuProfDir, env });
    for (const { process: name, healthyMs } of platform.startup) {
      ctx.processes.push({ process: `${name} (${label})`, healthyMs });
      sampler.add(`${name} (${label})`, platform.pids[name]);
    }
    const app = await registerServiceApp(platform, `bench-${label}`);
    return issuanceLoad(`${platform.baseUrl}/v1/oauth/token`, app);
  };
  try {
    ctx.progress('starting two more platforms, tracing on and off');
    const offLoad = await fresh('untraced', {});
    const onLoad = await fresh('traced', {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://127.0.0.1:${sink.address().port}/v1/traces`,
    });
    sampler.idle();
    // Both are new: each gets as many requests before either is measured, or the comparison
    // would measure the JIT.
    for (const load of [offLoad, onLoad]) {
      await httpLoad(
        { ...load, connections: ctx.options.connections },
        ctx.options.warmup + ctx.options.duration,
      );
    }
    const [off, on] = await ctx.compare([
      { name: 'issuance, tracing off', request: offLoad },
      { name: 'issuance, tracing on', request: onLoad },
    ]);
    ctx.progress(`  ${spans.toLocaleString('en-US')} span batches exported`);
    return [
      {
        key: 'issuance-untraced',
        label: 'Issuance, tracing off (a platform as new as the traced one)',
        ...off,
      },
      {
        key: 'issuance-traced',
        label: 'Issuance, tracing on (OTLP export of every span)',
        ...on,
        ratios: [{ against: 'issuance-untraced' }],
      },
    ];
  } finally {
    sink.close();
  }
};

/**
 * Waits (at most a minute) until the named process of the platform uses under a tenth of a core,
 * so that work a setup phase left behind (the events of 100,000 issued tokens) is not measured.
 */
async function settled(ctx, name) {
  const pid = ctx.platform.pids[name];
  const started = performance.now();
  for (let last = cpuSeconds(pid); performance.now() - started < 60_000;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = cpuSeconds(pid);
    const busy = now - last;
    last = now;
    if (!(busy >= 0.1)) break;
  }
  const waited = Math.round((performance.now() - started) / 1000);
  ctx.progress(`  ${name} settled after ${waited} s`);
}

async function issueMany(tokenUrl, client, count, concurrency) {
  const tokens = [];
  const worker = async () => {
    while (tokens.length < count) tokens.push((await issueToken(tokenUrl, client)).access_token);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return tokens.slice(0, count);
}

/** Draws by a Zipf law (s = 1.1): a few tokens carry most of the traffic, as real callers do. */
function zipfDraw(tokens) {
  const weights = tokens.map((_, rank) => 1 / (rank + 1) ** 1.1);
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative = [];
  let sum = 0;
  for (const weight of weights) cumulative.push((sum += weight / total));
  return () => {
    const u = Math.random();
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid] < u) low = mid + 1;
      else high = mid;
    }
    return tokens[low];
  };
}

/** The jose resource server in a process of its own, like the backend. */
function startJoseServer(issuer) {
  const child = fork(new URL('./jose-resource-server.mjs', import.meta.url), [issuer], { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', ({ port }) =>
      resolve({ url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') }),
    );
  });
}

/** Asks the sidecar again and again; answers the hrtime of its first refusal, undefined on timeout. */
/**
 * Issues `--revocations` tokens; each must be accepted where it is watched (`accepts`), is
 * revoked through the first backend, and is timed from sending the revocation until `refuses`
 * says it is refused there; `refusedHere`, when given, must hold as soon as the revocation has
 * answered. A token that breaks any of that counts as an error.
 */
async function timeRevocations(ctx, where, { accepts, refuses, refusedHere = async () => true }) {
  const { platform, app } = ctx;
  const count = ctx.options.revocations;
  ctx.progress(`revocation: issuing ${count} tokens`);
  const tokens = [];
  for (let i = 0; i < count; i++)
    tokens.push((await issueToken(`${platform.baseUrl}/v1/oauth/token`, app)).access_token);
  ctx.progress(`revocation: ${count} revocations, each until ${where} refuses the token`);
  const times = [];
  let errors = 0;
  for (const token of tokens) {
    if (!(await accepts(token))) {
      errors++;
      continue;
    }
    const sent = process.hrtime.bigint();
    const revoked = postForm(`${platform.baseUrl}/v1/oauth/revoke`, {
      token,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    const refused = pollUntil(() => refuses(token), PROPAGATION_TIMEOUT_MS);
    if ((await revoked).status !== 200 || !(await refusedHere(token))) errors++;
    const refusedAt = await refused;
    if (refusedAt === undefined) errors++;
    else times.push(Number(refusedAt - sent) / 1e6);
  }
  times.sort((a, b) => a - b);
  return {
    rps: null,
    count,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    errors,
    unit: 'revocations',
  };
}

/** The token of a new service app holding `scope` (each sidecar service takes its own). */
async function serviceToken(platform, name, scope) {
  const app = await registerServiceApp(platform, `bench-${name}-${Date.now().toString(36)}`, [scope]);
  return (await issueToken(`${platform.baseUrl}/v1/oauth/token`, app, scope)).access_token;
}

/** The moment `check` first answers true, or undefined when it has not within `timeoutMs`. */
async function pollUntil(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) if (await check()) return process.hrtime.bigint();
  return undefined;
}

/** Both servers must issue an RS256 `at+jwt` for the comparison to be the same work. */
async function expectSameKindOfToken(ours, ourClient, peers, peerClient) {
  for (const [url, client] of [
    [ours, ourClient],
    [peers, peerClient],
  ]) {
    const header = jwsHeader((await issueToken(url, client)).access_token);
    if (header.alg !== 'RS256' || header.typ !== 'at+jwt') {
      throw new Error(`${url} issued alg ${header.alg} typ ${header.typ}, not an RS256 at+jwt`);
    }
  }
}

/**
 * Issuance p99 while a flood of wrong client secrets makes the control plane run argon2
 * (64 MiB, t=3, p=4) against the same issuance without it, on a platform of its own whose
 * failure limits are off, as for a flood from many addresses. The bar: at most 2x
 * (docs/security.md; argon2 runs in child processes below the event loops' priority, ARGON2_NICE).
 */
scenarios['argon2-flood'] = async function argon2Flood(ctx) {
  ctx.progress('starting a platform without failure limits');
  const platform = await startPlatform({
    cpuProfDir: ctx.options.cpuProfDir,
    env: { RATE_LIMIT_FAILED_AUTH_PER_CLIENT: '0', RATE_LIMIT_FAILED_AUTH_PER_ADDRESS: '0' },
  });
  for (const { process: name, healthyMs } of platform.startup) {
    ctx.processes.push({ process: `${name} (flood)`, healthyMs });
    ctx.sampler.add(`${name} (flood)`, platform.pids[name]);
  }
  const tokenUrl = `${platform.baseUrl}/v1/oauth/token`;
  const issuance = issuanceLoad(tokenUrl, await registerServiceApp(platform, 'bench-issuer'));
  const target = await registerServiceApp(platform, 'bench-flooded');
  // Half as many connections as the issuance load, each request a new secret, so none shares
  // an argon2 run (VerifiedSecretCache shares identical attempts).
  const floodConnections = Math.max(1, ctx.options.connections >> 1);
  let guesses = 0;
  const flood = () =>
    httpLoad(
      {
        url: tokenUrl,
        method: 'POST',
        headers: { 'content-type': FORM },
        connections: floodConnections,
        setupRequest: (request) => ({
          ...request,
          body: clientCredentialsForm({ ...target, clientSecret: `wrong-${guesses++}` }),
        }),
      },
      ctx.options.warmup + ctx.options.duration + 1,
    );
  ctx.sampler.idle();
  const calm = await ctx.load('issuance, no flood', issuance);
  const flooding = flood();
  const during = await ctx.load(
    `issuance during a wrong-secret flood (${floodConnections} connections)`,
    issuance,
  );
  const floodRow = await flooding;
  ctx.progress(
    `  ${floodRow.errors.toLocaleString('en-US')} wrong secrets refused (401, or 503 while argon2 was busy)`,
  );
  return [
    {
      key: 'issuance-argon2-calm',
      label: 'Issuance, client_credentials (platform without failure limits)',
      ...calm,
    },
    {
      key: 'issuance-argon2-flood',
      label: `Issuance during a flood of wrong secrets (argon2), ${floodConnections} connections`,
      ...during,
      ratios: [
        {
          against: 'issuance-argon2-calm',
          label: 'the p99 without the flood (lower is better)',
          // No token answered during the flood is no figure, and no pass.
          value: during.requests > 0 ? during.p99 / calm.p99 : Infinity,
        },
      ],
    },
  ];
};
