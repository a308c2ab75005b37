import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { createAuthServiceClient, INTERNAL_TOKEN_METADATA } from '@platform/grpc';
import type * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { signIn } from '../../support/internal-consent';
import {
  adminToken,
  clientCredentialsToken,
  discover,
  postForm,
  registerApp,
  type RegisteredApp,
} from '../../support/oauth';
import { startExtraSidecar, startPlatform, type TestPlatform } from '../../support/platform';

/**
 * The backend caches what its sidecar accepted and judges new tokens with the keys and deny-list
 * its sidecar streams; these specs check neither ever outlives a revocation.
 */

const me = (platform: TestPlatform, token: string): Promise<number> =>
  fetch(`${platform.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${token}` } }).then(
    async (response) => {
      await response.arrayBuffer();
      return response.status;
    },
  );

/** Resolves once the backend logged that its invalidation stream is live (the cache is on). */
async function cacheLive(platform: TestPlatform): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!readFileSync(join(platform.dataDir, 'platform.log'), 'utf8').includes('validation cache on')) {
    if (Date.now() > deadline) throw new Error('the backend never reported its validation cache live');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One platform for both blocks: the second stops its sidecar, so it runs last. */
let platform: TestPlatform;
beforeAll(async () => {
  platform = await startPlatform();
  await cacheLive(platform);
});
afterAll(() => platform?.stop());

describe('GET /v1/me with the validation cache', () => {
  let as: oauth.AuthorizationServer;
  let admin: string;
  let app: RegisteredApp;

  beforeAll(async () => {
    as = await discover(platform);
    admin = await adminToken(as, platform);
    app = await registerApp(platform, admin, { client_id: 'cached-app' });
  });

  const issue = async (registered: RegisteredApp = app) =>
    (
      await clientCredentialsToken(as, {
        clientId: registered.client_id,
        clientSecret: registered.client_secret!,
      })
    ).access_token;

  /** ValidateToken calls the sidecar answered, whatever their outcome. */
  const validations = async () => {
    const text = await (await fetch(`http://127.0.0.1:${platform.env.SIDECAR_HEALTH_PORT}/metrics`)).text();
    return text
      .split('\n')
      .filter(
        (l) => l.startsWith('platform_grpc_call_duration_seconds_count') && l.includes('/ValidateToken"'),
      )
      .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
  };

  it('refuses a cached token on the very next request after it is revoked through this backend', async () => {
    for (let round = 0; round < 3; round++) {
      const token = await issue();
      expect(await me(platform, token)).toBe(200);
      expect(await me(platform, token)).toBe(200);

      const revoked = await postForm(`${platform.baseUrl}/v1/oauth/revoke`, {
        token,
        client_id: app.client_id,
        client_secret: app.client_secret!,
      });
      expect(revoked.status).toBe(200);

      expect(await me(platform, token)).toBe(401);
    }
  });

  it('refuses a token it never saw on the very next request after it is revoked through this backend', async () => {
    for (let round = 0; round < 3; round++) {
      const token = await issue();
      const revoked = await postForm(`${platform.baseUrl}/v1/oauth/revoke`, {
        token,
        client_id: app.client_id,
        client_secret: app.client_secret!,
      });
      expect(revoked.status).toBe(200);

      expect(await me(platform, token)).toBe(401);
    }
  });

  it('refuses a cached token on the very next request after it revokes itself at /api/v1/auth/revoke', async () => {
    const token = await issue();
    expect(await me(platform, token)).toBe(200);
    expect(await me(platform, token)).toBe(200);

    const revoked = await fetch(`${platform.baseUrl}/api/v1/auth/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(revoked.status).toBe(200);

    expect(await me(platform, token)).toBe(401);
  });

  it("refuses a user's cached access token on the very next request after its refresh token is revoked", async () => {
    const spa = await registerApp(platform, admin, {
      client_id: 'cached-spa',
      app_type: 'spa',
      declared_scopes: ['jobs.read'],
      redirect_uris: ['https://spa.example.test/callback'],
    });
    const { config, tokens } = await signIn(platform, spa);
    expect(await me(platform, tokens.access_token)).toBe(200);
    expect(await me(platform, tokens.access_token)).toBe(200);

    await client.tokenRevocation(config, tokens.refresh_token!);

    expect(await me(platform, tokens.access_token)).toBe(401);
  });

  it('refuses the cached tokens of a deleted app on the very next request', async () => {
    const doomed = await registerApp(platform, admin, { client_id: 'cached-doomed-app' });
    const token = await issue(doomed);
    expect(await me(platform, token)).toBe(200);
    expect(await me(platform, token)).toBe(200);

    const deleted = await fetch(`${platform.baseUrl}/v1/oauth/apps/${doomed.client_id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(deleted.status).toBe(204);

    expect(await me(platform, token)).toBe(401);
  });

  /** Revokes `token` through a second sidecar; answers how long until this backend refuses it. */
  async function msUntilRefusedAfterRevokingElsewhere(token: string): Promise<number> {
    const other = await startExtraSidecar(platform);
    const client = createAuthServiceClient(other.address);
    try {
      const metadata = new grpc.Metadata();
      metadata.set(INTERNAL_TOKEN_METADATA, platform.internalToken);
      await new Promise<void>((resolve, reject) =>
        client.RevokeToken({ token }, metadata, { deadline: Date.now() + 5_000 }, (error) =>
          error ? reject(error) : resolve(),
        ),
      );
      const revokedAt = Date.now();
      while ((await me(platform, token)) === 200) {
        if (Date.now() - revokedAt > 5_000) throw new Error('still accepted 5 s after the revocation');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const elapsed = Date.now() - revokedAt;
      expect(await me(platform, token)).toBe(401);
      return elapsed;
    } finally {
      client.close();
      await other.stop();
    }
  }

  it('refuses within 1 s a cached token revoked through another sidecar', async () => {
    const token = await issue();
    expect(await me(platform, token)).toBe(200);
    expect(await me(platform, token)).toBe(200);

    expect(await msUntilRefusedAfterRevokingElsewhere(token)).toBeLessThan(1_000);
  });

  it('refuses within 1 s a token it never saw, revoked through another sidecar', async () => {
    expect(await msUntilRefusedAfterRevokingElsewhere(await issue())).toBeLessThan(1_000);
  });

  it('accepts a token it never saw by its signature, without asking the sidecar', async () => {
    const tokens = await Promise.all([issue(), issue(), issue()]);
    const before = await validations();

    for (const token of tokens) expect(await me(platform, token)).toBe(200);

    expect(await validations()).toBe(before);
    // What it cannot judge (here a forged signature) still goes to the sidecar, and is counted.
    const [header, payload] = tokens[0].split('.');
    expect(await me(platform, `${header}.${payload}.${'A'.repeat(342)}`)).toBe(401);
    expect(await validations()).toBe(before + 1);
  });

  it("after a key rotation, judges the new key's tokens itself once its sidecar streamed the new key set", async () => {
    const before = await issue();
    expect(await me(platform, before)).toBe(200);
    const rotated = await fetch(`${platform.baseUrl}/api/v1/keys/rotate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(rotated.status).toBe(201);

    // The first token of the new key: unknown to the backend, so its sidecar judges it and
    // fetches the key, which streams the new set back (unless the sidecar's 30 s refresh got
    // there first: either way it is accepted).
    expect(await me(platform, await issue())).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, 200));
    const next = await issue();
    const settled = await validations();
    expect(await me(platform, next)).toBe(200);
    expect(await validations()).toBe(settled);
    // The old key stays trusted for its overlap.
    expect(await me(platform, before)).toBe(200);
  });

  it('refuses a token it never saw of an app deleted through it, at once', async () => {
    const doomed = await registerApp(platform, admin, { client_id: 'never-seen-doomed-app' });
    const token = await issue(doomed);
    const deleted = await fetch(`${platform.baseUrl}/v1/oauth/apps/${doomed.client_id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(deleted.status).toBe(204);

    expect(await me(platform, token)).toBe(401);
  });
});

describe('GET /v1/me with the validation cache, once the sidecar is gone', () => {
  it('answers 503, never 200 from the cache', async () => {
    const as = await discover(platform);
    const token = await adminToken(as, platform);
    expect(await me(platform, token)).toBe(200);
    expect(await me(platform, token)).toBe(200);

    await platform.stopProcess('sidecar');

    expect(await me(platform, token)).toBe(503);
    expect(await me(platform, token)).toBe(503);
  });
});
