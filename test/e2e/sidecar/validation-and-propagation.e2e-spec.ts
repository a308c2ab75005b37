import { createAuthServiceClient, type AuthServiceClient } from '@platform/grpc';
import * as grpc from '@grpc/grpc-js';
import type * as oauth from 'oauth4webapi';
import {
  adminToken,
  clientCredentialsToken,
  discover,
  postForm,
  registerApp,
  type RegisteredApp,
} from '../../support/oauth';
import { startExtraSidecar, startPlatform, type TestPlatform } from '../../support/platform';
import { signWithPlatformKey, tamper, unsecuredJwt } from '../../support/tokens';

function validate(
  client: AuthServiceClient,
  token: string,
): Promise<{ code: grpc.status; message?: string }> {
  return new Promise((resolve) => {
    client.ValidateToken({ token }, new grpc.Metadata(), { deadline: Date.now() + 2000 }, (error) =>
      resolve(error ? { code: error.code, message: error.details } : { code: grpc.status.OK }),
    );
  });
}

async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await condition()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`condition not met within ${timeoutMs} ms`);
}

/** One platform for both blocks: the second stops its sidecar, so it runs last. */
let platform: TestPlatform;
beforeAll(async () => {
  platform = await startPlatform();
});
afterAll(() => platform?.stop());

describe('sidecar ValidateToken', () => {
  let as: oauth.AuthorizationServer;
  let app: RegisteredApp;
  let local: AuthServiceClient;
  let remote: AuthServiceClient;
  let second: { address: string; stop(): Promise<void> };

  beforeAll(async () => {
    second = await startExtraSidecar(platform);
    as = await discover(platform);
    app = await registerApp(platform, await adminToken(as, platform), { client_id: 'validated-app' });
    local = createAuthServiceClient(platform.sidecarAddress);
    remote = createAuthServiceClient(second.address);
  });
  afterAll(async () => {
    local?.close();
    remote?.close();
    await second?.stop();
  });

  const issue = async () =>
    (await clientCredentialsToken(as, { clientId: app.client_id, clientSecret: app.client_secret! }))
      .access_token;

  it('accepts a fresh token on both sidecars', async () => {
    const token = await issue();
    expect(await validate(local, token)).toEqual({ code: grpc.status.OK });
    expect(await validate(remote, token)).toEqual({ code: grpc.status.OK });
  });

  it('rejects tampered, alg:none, expired and empty tokens with the gRPC codes of the contract', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: platform.baseUrl,
      aud: platform.baseUrl,
      sub: app.client_id,
      client_id: app.client_id,
      scope: 'jobs.read',
      jti: 'e2e-expired',
      iat: now - 7200,
      exp: now - 3600,
    };
    expect((await validate(local, tamper(await issue(), { scope: 'admin.*' }))).code).toBe(
      grpc.status.UNAUTHENTICATED,
    );
    expect((await validate(local, unsecuredJwt({ ...claims, exp: now + 600 }))).code).toBe(
      grpc.status.UNAUTHENTICATED,
    );
    expect((await validate(local, await signWithPlatformKey(platform, claims))).code).toBe(
      grpc.status.UNAUTHENTICATED,
    );
    expect((await validate(local, '')).code).toBe(grpc.status.INVALID_ARGUMENT);
  });

  it('learns a revocation at once beside the backend that did it, and on a second sidecar well within 30 s', async () => {
    const token = await issue();
    const response = await postForm(`${platform.baseUrl}/v1/oauth/revoke`, {
      token,
      client_id: app.client_id,
      client_secret: app.client_secret!,
    });
    expect(response.status).toBe(200);
    expect((await validate(local, token)).code).toBe(grpc.status.UNAUTHENTICATED);
    const elapsed = await until(
      async () => (await validate(remote, token)).code === grpc.status.UNAUTHENTICATED,
      30_000,
    );
    expect(elapsed).toBeLessThan(2_000);
  });

  it('learns an app deletion on both sidecars', async () => {
    const admin = await adminToken(as, platform);
    const doomed = await registerApp(platform, admin, { client_id: 'deleted-app' });
    const token = (
      await clientCredentialsToken(as, { clientId: doomed.client_id, clientSecret: doomed.client_secret! })
    ).access_token;
    expect((await validate(remote, token)).code).toBe(grpc.status.OK);
    const deleted = await fetch(`${platform.baseUrl}/v1/oauth/apps/deleted-app`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(deleted.status).toBe(204);
    expect((await validate(local, token)).code).toBe(grpc.status.UNAUTHENTICATED);
    await until(async () => (await validate(remote, token)).code === grpc.status.UNAUTHENTICATED, 30_000);
  });
});

describe('GET /health and fail-closed protection', () => {
  it('reports status, sidecar and version', async () => {
    const response = await fetch(`${platform.baseUrl}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', sidecar: 'connected', version: '0.9.0' });
  });

  it('answers 503 on protected routes and in health once the sidecar is gone, never letting a request through', async () => {
    const as = await discover(platform);
    const token = await adminToken(as, platform);
    await platform.stopProcess('sidecar');
    const protectedResponse = await fetch(`${platform.baseUrl}/v1/oauth/apps`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(protectedResponse.status).toBe(503);
    const health = await fetch(`${platform.baseUrl}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ sidecar: 'unavailable' });
  });
});
