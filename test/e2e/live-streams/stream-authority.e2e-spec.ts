import * as grpc from '@grpc/grpc-js';
import { createJobServiceClient, type JobServiceClient } from '@platform/grpc';
import type * as oauth from 'oauth4webapi';
import { identityOf, signIn, type TestIdentity } from '../../support/internal-consent';
import {
  adminToken,
  clientCredentialsToken,
  discover,
  postForm,
  registerApp,
  type RegisteredApp,
} from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { patchOp, provisioningToken, SCIM, scimClient, type ScimCall } from '../../support/scim';
import { closedWithin, openSse, type SseStream } from '../../support/sse';
import { signWithPlatformKey } from '../../support/tokens';

/**
 * Issue 36, reproduction 5: a live stream was authorized once, at connect, and ran on after its
 * token expired, was revoked, its app was deleted or its user deprovisioned. Each stream now
 * runs on its token: it ends at the token's `exp`, and within a second of a revocation naming
 * its token, app or user, with `event: end` saying why (SSE) or UNAUTHENTICATED (gRPC).
 */
/** Its own tenant, apps and users on the shared platform. */
const TENANT = 'stream-authority';
/** "At once": the bound the issue sets, measured from the answer of the revoking request. */
const AT_ONCE_MS = 1_000;

describe('live streams end with the authority of their token', () => {
  let platform: TestPlatform;
  let as: oauth.AuthorizationServer;
  let admin: string;
  let submitter: string;
  let grpcJobs: JobServiceClient;
  let scim: ScimCall;
  let portal: RegisteredApp;
  const open: Array<{ close(): void }> = [];

  beforeAll(async () => {
    platform = sharedPlatform();
    as = await discover(platform);
    admin = await adminToken(as, platform);
    submitter = (await serviceApp('stream-scheduler', ['jobs.write'])).token;
    grpcJobs = createJobServiceClient(platform.sidecarAddress);
    scim = scimClient(platform.baseUrl, await provisioningToken(platform, as, admin, 'stream-idp', TENANT));
    portal = await registerApp(platform, admin, {
      client_id: 'stream-portal',
      app_type: 'web',
      declared_scopes: ['jobs.read'],
      redirect_uris: ['http://127.0.0.1:9/stream-authority/callback'],
    });
  });
  afterAll(async () => {
    for (const stream of open) stream.close();
    grpcJobs?.close();
  });

  /** A new service app with `scopes` and a token of it. */
  async function serviceApp(
    clientId: string,
    scopes: string[],
  ): Promise<{ app: RegisteredApp; token: string }> {
    const app = await registerApp(platform, admin, { client_id: clientId, declared_scopes: scopes });
    const credentials = { clientId: app.client_id, clientSecret: app.client_secret! };
    return { app, token: (await clientCredentialsToken(as, credentials)).access_token };
  }

  /** The same token (same app, user, scope), signed by the platform, expiring in `seconds`. */
  async function expiringCopy(token: string, seconds: number): Promise<{ token: string; exp: number }> {
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const exp = Math.floor(Date.now() / 1000) + seconds;
    return {
      token: await signWithPlatformKey(platform, { ...claims, jti: `${claims.jti}-short`, exp }),
      exp,
    };
  }

  /** A job no worker runs: its streams never end on their own. */
  async function queuedJob(): Promise<string> {
    const response = await fetch(`${platform.baseUrl}/api/v1/tenants/${TENANT}/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${submitter}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'stream.nobody-works-this', payload: null }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  async function sse(path: string, token: string, base = platform.baseUrl): Promise<SseStream> {
    const stream = await openSse(`${base}${path}`, { authorization: `Bearer ${token}` });
    open.push(stream);
    expect(stream.status).toBe(200);
    return stream;
  }

  const auditStream = (token: string, base?: string) => sse('/api/v1/audit/records', token, base);
  const transitionStream = async (token: string) =>
    sse(`/api/v1/tenants/${TENANT}/jobs/${await queuedJob()}/transitions`, token);

  /** The reason of the stream's last event, which must be its `end`. */
  function endReason(stream: SseStream): string {
    const last = stream.events.at(-1);
    expect(last?.event).toBe('end');
    return (JSON.parse(last!.data) as { reason: string }).reason;
  }

  interface Watch {
    /** Resolves with the status the stream ended with and when. */
    ended: Promise<{ error: grpc.ServiceError | null; at: number }>;
  }

  /** WatchJob on a queued job, once its first message (the current state) has arrived. */
  async function watchJob(token: string): Promise<Watch> {
    const call = grpcJobs.WatchJob({ token, tenant: TENANT, id: await queuedJob() });
    open.push({ close: () => call.cancel() });
    let first!: () => void;
    const started = new Promise<void>((resolve) => (first = resolve));
    const ended = new Promise<{ error: grpc.ServiceError | null; at: number }>((resolve) => {
      call.on('data', () => first());
      call.on('error', (error: grpc.ServiceError) => resolve({ error, at: Date.now() }));
      call.on('end', () => resolve({ error: null, at: Date.now() }));
    });
    await Promise.race([started, ended.then(({ error }) => Promise.reject(error ?? new Error('ended')))]);
    return { ended };
  }

  async function watchEndedWithin(watch: Watch, timeoutMs: number) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`WatchJob was still open after ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([watch.ended, timeout]).finally(() => clearTimeout(timer));
  }

  const revoke = (token: string, app: { client_id: string; client_secret?: string }) =>
    postForm(`${platform.baseUrl}/v1/oauth/revoke`, {
      token,
      client_id: app.client_id,
      client_secret: app.client_secret!,
    });

  describe('at the token’s expiry', () => {
    it('ends the audit records stream when its admin token expires, not before', async () => {
      const { token, exp } = await expiringCopy(await adminToken(as, platform), 3);
      const stream = await auditStream(token);

      const closedAt = await closedWithin(stream, 6_000);

      expect(endReason(stream)).toBe('token_expired');
      expect(closedAt).toBeGreaterThanOrEqual(exp * 1000 - 50);
      expect(closedAt - exp * 1000).toBeLessThan(AT_ONCE_MS);
      expect(stream.events.filter((e) => e.event === 'audit_record').length).toBeGreaterThan(0);
    });

    it('ends the control plane’s own audit stream at the admin token’s expiry too', async () => {
      const { token, exp } = await expiringCopy(await adminToken(as, platform), 2);
      const stream = await auditStream(token, platform.controlPlaneUrl);

      const closedAt = await closedWithin(stream, 5_000);

      expect(endReason(stream)).toBe('token_expired');
      expect(closedAt - exp * 1000).toBeLessThan(AT_ONCE_MS);
    });

    it('ends a job’s transitions stream and WatchJob when the reader’s token expires', async () => {
      const reader = await serviceApp('stream-expiring-reader', ['jobs.read']);
      const { token, exp } = await expiringCopy(reader.token, 3);
      const stream = await transitionStream(token);
      const watch = await watchJob(token);

      const closedAt = await closedWithin(stream, 6_000);
      const watched = await watchEndedWithin(watch, 2_000);

      expect(stream.events.map((e) => e.event)).toEqual(['job_transition', 'end']);
      expect(endReason(stream)).toBe('token_expired');
      expect(closedAt - exp * 1000).toBeLessThan(AT_ONCE_MS);
      expect(watched.error).toMatchObject({
        code: grpc.status.UNAUTHENTICATED,
        details: 'stream ended: token_expired',
      });
      expect(watched.at - exp * 1000).toBeLessThan(AT_ONCE_MS);
    });
  });

  describe('at once when the deny-list names the token', () => {
    it('ends the audit records stream within a second of its admin token’s revocation', async () => {
      const token = await adminToken(as, platform);
      const stream = await auditStream(token);
      const bystander = await auditStream(admin);

      const revoked = await revoke(token, {
        client_id: platform.admin.clientId,
        client_secret: platform.admin.clientSecret,
      });
      expect(revoked.status).toBe(200);
      const answeredAt = Date.now();

      expect((await closedWithin(stream, AT_ONCE_MS)) - answeredAt).toBeLessThan(AT_ONCE_MS);
      expect(endReason(stream)).toBe('token_revoked');
      // Another token's stream runs on.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(bystander.events.some((e) => e.event === 'end')).toBe(false);
      bystander.close();
    });

    it('ends a job’s transitions stream and WatchJob within a second of the token’s revocation', async () => {
      const reader = await serviceApp('stream-revoked-reader', ['jobs.read']);
      const stream = await transitionStream(reader.token);
      const watch = await watchJob(reader.token);

      expect((await revoke(reader.token, reader.app)).status).toBe(200);
      const answeredAt = Date.now();

      expect((await closedWithin(stream, AT_ONCE_MS)) - answeredAt).toBeLessThan(AT_ONCE_MS);
      expect(endReason(stream)).toBe('token_revoked');
      const watched = await watchEndedWithin(watch, AT_ONCE_MS);
      expect(watched.error).toMatchObject({
        code: grpc.status.UNAUTHENTICATED,
        details: 'stream ended: token_revoked',
      });
      expect(watched.at - answeredAt).toBeLessThan(AT_ONCE_MS);
    });
  });

  describe('at once when the deny-list names the app', () => {
    it('ends the app’s job streams (SSE and WatchJob) within a second of its deletion', async () => {
      const reader = await serviceApp('stream-deleted-reader', ['jobs.read']);
      const stream = await transitionStream(reader.token);
      const watch = await watchJob(reader.token);

      const deleted = await fetch(`${platform.baseUrl}/v1/oauth/apps/${reader.app.client_id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(deleted.status).toBe(204);
      const answeredAt = Date.now();

      expect((await closedWithin(stream, AT_ONCE_MS)) - answeredAt).toBeLessThan(AT_ONCE_MS);
      expect(endReason(stream)).toBe('app_deleted');
      const watched = await watchEndedWithin(watch, AT_ONCE_MS);
      expect(watched.error).toMatchObject({
        code: grpc.status.UNAUTHENTICATED,
        details: 'stream ended: app_deleted',
      });
    });
  });

  describe('at once when the deny-list names the user', () => {
    it('ends the user’s job streams (SSE and WatchJob) within a second of SCIM deprovisioning', async () => {
      const person: TestIdentity = identityOf('00u-stream-leaver', TENANT, ['viewer']);
      const email = person.claims.email as string;
      const provisioned = await scim('POST', '/Users', {
        schemas: [SCIM.user],
        userName: email,
        externalId: person.subject,
      });
      expect(provisioned.status).toBe(201);
      const { user, tokens } = await signIn(platform, portal, { identity: person });
      expect(user.id).toBe(provisioned.body.id);
      const stream = await transitionStream(tokens.access_token);
      const watch = await watchJob(tokens.access_token);

      const deactivated = await scim(
        'PATCH',
        `/Users/${user.id}`,
        patchOp({ op: 'replace', path: 'active', value: false }),
      );
      expect(deactivated.status).toBe(200);
      const answeredAt = Date.now();

      expect((await closedWithin(stream, AT_ONCE_MS)) - answeredAt).toBeLessThan(AT_ONCE_MS);
      expect(endReason(stream)).toBe('user_deprovisioned');
      const watched = await watchEndedWithin(watch, AT_ONCE_MS);
      expect(watched.error).toMatchObject({
        code: grpc.status.UNAUTHENTICATED,
        details: 'stream ended: user_deprovisioned',
      });
    });
  });
});
