import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import {
  type CheckRateLimitResult,
  createAuthServiceClient,
  createRateLimitServiceClient,
  INTERNAL_TOKEN_METADATA,
  readRetryInfo,
} from '@platform/grpc';
import { adminToken, clientCredentialsToken, discover, registerApp } from '../../support/oauth';
import { startExtraSidecar, startPlatform, type TestPlatform } from '../../support/platform';

const FAILURES_ALLOWED = 3;
const WINDOW_SECONDS = 900;

/**
 * The sidecar's own limits against a Redis that is down (nothing listens on port 1): counts go on
 * in the sidecar's memory, and a caller guessing the internal token is refused with
 * RESOURCE_EXHAUSTED and a google.rpc.RetryInfo, while the right token from the same address passes.
 */
describe('sidecar gRPC: its own limits, with Redis down', () => {
  let platform: TestPlatform;
  let sidecar: { address: string; log: string; stop(): Promise<void> };
  let admin: string;

  beforeAll(async () => {
    platform = await startPlatform({ env: { RATE_LIMIT_REDIS_URL: 'redis://127.0.0.1:1' } });
    // Its own sidecar, with a small failure quota.
    sidecar = await startExtraSidecar(platform, {
      RATE_LIMIT_FAILED_AUTH_PER_ADDRESS: String(FAILURES_ALLOWED),
    });
    admin = await adminToken(await discover(platform), platform);
  });
  afterAll(async () => {
    await sidecar?.stop();
    await platform?.stop();
  });

  it('counts CheckRateLimit in its memory while Redis is down, and says so in its log', async () => {
    const put = await fetch(`${platform.baseUrl}/api/v1/tenants/default/rate-limits/offline`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        descriptors: [{ key: 'user', rate_limit: { unit: 'hour', requests_per_unit: 2 } }],
      }),
    });
    expect(put.status).toBe(200);
    const app = await registerApp(platform, admin, {
      client_id: 'offline-gateway',
      declared_scopes: ['ratelimit.check'],
    });
    const token = (
      await clientCredentialsToken(await discover(platform), {
        clientId: app.client_id,
        clientSecret: app.client_secret!,
      })
    ).access_token;
    const client = createRateLimitServiceClient(sidecar.address);
    const check = () =>
      new Promise<CheckRateLimitResult>((resolve, reject) =>
        client.CheckRateLimit(
          {
            token,
            tenant: 'default',
            domain: 'offline',
            descriptors: [{ entries: [{ key: 'user', value: 'ada' }] }],
          },
          (error, response) => (error ? reject(error) : resolve(response!)),
        ),
      );
    try {
      // The rules reach the sidecar within a second.
      const deadline = Date.now() + 3000;
      let first = await check();
      while (first.statuses[0].current_limit === null && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        first = await check();
      }
      expect(first.statuses[0]).toMatchObject({ code: 'OK', limit_remaining: 1 });
      expect((await check()).overall_code).toBe('OK');
      expect(await check()).toMatchObject({ overall_code: 'OVER_LIMIT' });
    } finally {
      client.close();
    }
    expect(readFileSync(sidecar.log, 'utf8')).toMatch(/counting in this process's memory meanwhile/);
  });

  it('refuses further guesses from an address that keeps failing, with RetryInfo, never the right token', async () => {
    const client = createAuthServiceClient(sidecar.address);
    const sync = (internalToken: string) =>
      new Promise<grpc.ServiceError | null>((resolve) => {
        const metadata = new grpc.Metadata();
        metadata.set(INTERNAL_TOKEN_METADATA, internalToken);
        client.SyncRevocations({}, metadata, (error) => resolve(error));
      });
    try {
      expect(await sync(platform.internalToken)).toBeNull();
      for (let attempt = 0; attempt < FAILURES_ALLOWED; attempt++) {
        expect((await sync('a-guess'))?.code).toBe(grpc.status.UNAUTHENTICATED);
      }
      const refusal = await sync('a-guess');
      expect(refusal?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(refusal?.details).toMatch(/too many failed internal token attempts/);
      const retry = readRetryInfo(refusal?.metadata);
      expect(retry?.status.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(retry?.retryAfterSeconds).toBeGreaterThan(WINDOW_SECONDS - 5);
      expect(retry?.retryAfterSeconds).toBeLessThanOrEqual(WINDOW_SECONDS);
      // Every local process shares the loopback address: the guesser locks no one else out.
      expect(await sync(platform.internalToken)).toBeNull();
    } finally {
      client.close();
    }
    // The platform's own sidecar counts for itself: it still answers the backend.
    expect(
      (await fetch(`${platform.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${admin}` } })).status,
    ).toBe(200);
  });
});
