import * as grpc from '@grpc/grpc-js';
import { listServices } from './testing/reflection';
import { Logger, type INestApplicationContext } from '@nestjs/common';
import { ConfigError } from '@platform/config';
import { CORRELATION_HEADER } from '@platform/telemetry';
import {
  createAuthServiceClient,
  type AuthServiceClient,
  type InvalidationMessage,
  type JsonWebKeyMessage,
  type TokenClaims,
} from '@platform/grpc';
import { service as healthService } from 'grpc-health-check';
import { base64url } from 'jose';
import type { SidecarConfig } from './config/sidecar-config';
import { SidecarGrpcServer } from './grpc/sidecar-grpc.server';
import { HealthHttpServer } from './health/health-http.server';
import { Readiness } from './health/readiness';
import { KeyCache } from './keys/key-cache';
import { RevocationSync } from './revocation/revocation-sync';
import { startSidecar } from './start-sidecar';
import { eventually } from './testing/eventually';
import { FakeControlPlane } from './testing/fake-control-plane';
import { TEST_INTERNAL_TOKEN, TEST_ISSUER, testConfig } from './testing/test-config';
import { createTestKey, signAccessToken, type TestKey } from './testing/test-keys';
import { call } from './testing/grpc-call';

/** One booted sidecar with clients for its three gRPC services. */
interface Running {
  app: INestApplicationContext;
  auth: AuthServiceClient;
  health: grpc.Client & { Check: UnaryCall<{ service: string }, { status: string }> };
  healthUrl: string;
  address: string;
}

type UnaryCall<Req, Res> = (
  request: Req,
  callback: (error: grpc.ServiceError | null, response: Res) => void,
) => void;

async function boot(controlPlane: FakeControlPlane, config: SidecarConfig = testConfig()): Promise<Running> {
  const app = await startSidecar({ config, controlPlane }, { logger: false, abortOnError: false });
  const address = `127.0.0.1:${app.get(SidecarGrpcServer).port}`;
  const Health = grpc.makeClientConstructor(
    healthService as unknown as grpc.ServiceDefinition,
    'grpc.health.v1.Health',
  );
  return {
    app,
    address,
    auth: createAuthServiceClient(address),
    health: new Health(address, grpc.credentials.createInsecure()) as unknown as Running['health'],
    healthUrl: `http://127.0.0.1:${app.get(HealthHttpServer).port}/health`,
  };
}

async function shutdown(running: Running | undefined): Promise<void> {
  if (!running) return;
  running.auth.close();
  running.health.close();
  await running.app.close();
}

const internal = (token = TEST_INTERNAL_TOKEN): grpc.Metadata => {
  const metadata = new grpc.Metadata();
  metadata.set('x-internal-token', token);
  return metadata;
};

describe('sidecar gRPC (platform.auth.v1.AuthService)', () => {
  let key: TestKey;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    key = await createTestKey('RS256');
  });

  describe('once the keys and the deny-list are loaded', () => {
    let controlPlane: FakeControlPlane;
    let sidecar: Running;

    beforeAll(async () => {
      controlPlane = new FakeControlPlane();
      controlPlane.publish(key.publicJwk);
      sidecar = await boot(controlPlane);
      await sidecar.app.get(Readiness).whenReady();
    });

    afterAll(() => shutdown(sidecar));

    it('ValidateToken answers the claims of a valid token', async () => {
      const token = await signAccessToken(key, { claims: { jti: 'grpc-ok' } });

      const { error, response } = await call<{ claims: TokenClaims | null }>((done) =>
        sidecar.auth.ValidateToken({ token }, new grpc.Metadata(), {}, done),
      );

      expect(error).toBeNull();
      expect(response.claims).toMatchObject({
        iss: TEST_ISSUER,
        sub: 'reports-service',
        jti: 'grpc-ok',
        client_id: 'reports-service',
      });
    });

    it('ValidateToken answers the actor chain and the impersonation mode', async () => {
      const act = { sub: 'support-1', client_id: 'console', act: { sub: 'gateway' } };
      const token = await signAccessToken(key, { claims: { sub: 'user-42', act, impersonation: 'full' } });

      const { error, response } = await call<{ claims: TokenClaims | null }>((done) =>
        sidecar.auth.ValidateToken({ token }, new grpc.Metadata(), {}, done),
      );

      expect(error).toBeNull();
      expect(response.claims).toMatchObject({
        sub: 'user-42',
        act: { sub: 'support-1', client_id: 'console', act: { sub: 'gateway', client_id: '', act: null } },
        impersonation: 'full',
      });
    });

    it('ValidateToken accepts a token for the audience it is asked about, and only that one', async () => {
      const resource = 'https://api.reports.example';
      const token = await signAccessToken(key, { claims: { aud: resource } });
      const validate = (audience?: string) =>
        call<{ claims: TokenClaims | null }>((done) =>
          sidecar.auth.ValidateToken({ token, audience }, new grpc.Metadata(), {}, done),
        );

      const named = await validate(resource);
      const unnamed = await validate();

      expect(named.error).toBeNull();
      expect(named.response.claims).toMatchObject({ aud: resource, act: null, impersonation: '' });
      expect(unnamed.error).toMatchObject({ code: grpc.status.UNAUTHENTICATED, details: 'wrong audience' });
    });

    it('ValidateToken refuses an expired token with UNAUTHENTICATED and the reason', async () => {
      const token = await signAccessToken(key, { iat: Math.floor(Date.now() / 1000) - 7200 });

      const { error } = await call((done) =>
        sidecar.auth.ValidateToken({ token }, new grpc.Metadata(), {}, done),
      );

      expect(error).toMatchObject({ code: grpc.status.UNAUTHENTICATED, details: 'token expired' });
    });

    it('ValidateToken refuses an alg none token with UNAUTHENTICATED', async () => {
      const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid: key.kid }));
      const payload = base64url.encode(
        JSON.stringify({
          iss: TEST_ISSUER,
          aud: TEST_ISSUER,
          sub: 'x',
          client_id: 'x',
          jti: 'x',
          iat: 1,
          exp: 4_000_000_000,
        }),
      );

      const { error } = await call((done) =>
        sidecar.auth.ValidateToken({ token: `${header}.${payload}.` }, new grpc.Metadata(), {}, done),
      );

      expect(error).toMatchObject({ code: grpc.status.UNAUTHENTICATED, details: 'algorithm not allowed' });
    });

    it('ValidateToken refuses an empty token with INVALID_ARGUMENT', async () => {
      const { error } = await call((done) =>
        sidecar.auth.ValidateToken({ token: '' }, new grpc.Metadata(), {}, done),
      );

      expect(error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
    });

    it('RevokeToken without the internal token is UNAUTHENTICATED and reaches no one', async () => {
      const token = await signAccessToken(key);
      const revokesBefore = controlPlane.calls.revoke;

      const { error } = await call((done) =>
        sidecar.auth.RevokeToken({ token }, new grpc.Metadata(), {}, done),
      );

      expect(error).toMatchObject({ code: grpc.status.UNAUTHENTICATED });
      expect(controlPlane.calls.revoke).toBe(revokesBefore);
    });

    it('RevokeToken with a wrong internal token is UNAUTHENTICATED', async () => {
      const token = await signAccessToken(key);

      const { error } = await call((done) =>
        sidecar.auth.RevokeToken({ token }, internal('not-the-internal-token'), {}, done),
      );

      expect(error).toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    });

    it('RevokeToken revokes through the control plane and the token is refused at once', async () => {
      const token = await signAccessToken(key);

      const revoked = await call((done) => sidecar.auth.RevokeToken({ token }, internal(), {}, done));
      const validated = await call((done) =>
        sidecar.auth.ValidateToken({ token }, new grpc.Metadata(), {}, done),
      );

      expect(revoked.error).toBeNull();
      expect(validated.error).toMatchObject({ code: grpc.status.UNAUTHENTICATED, details: 'token revoked' });
    });

    it("RevokeToken calls the control plane inside the caller's correlation id", async () => {
      const token = await signAccessToken(key);
      const metadata = internal();
      metadata.set(CORRELATION_HEADER, 'req-revoke-7');

      const { error } = await call((done) => sidecar.auth.RevokeToken({ token }, metadata, {}, done));

      expect(error).toBeNull();
      expect(controlPlane.revokedUnder.at(-1)).toBe('req-revoke-7');
    });

    it('RevokeToken answers UNAVAILABLE when the control plane is unreachable', async () => {
      const token = await signAccessToken(key);
      controlPlane.reachable = false;

      const { error } = await call((done) => sidecar.auth.RevokeToken({ token }, internal(), {}, done));
      controlPlane.reachable = true;

      expect(error).toMatchObject({ code: grpc.status.UNAVAILABLE });
    });

    it('SyncRevocations without the internal token is UNAUTHENTICATED', async () => {
      const { error } = await call((done) => sidecar.auth.SyncRevocations({}, new grpc.Metadata(), {}, done));

      expect(error).toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    });

    it('SyncRevocations applies an app deletion at once and answers the last seq', async () => {
      const token = await signAccessToken(key, { claims: { client_id: 'deleted-app', sub: 'deleted-app' } });
      controlPlane.streaming = false;
      const deletion = controlPlane.revoke('client', 'deleted-app');

      const synced = await call<{ last_seq: number }>((done) =>
        sidecar.auth.SyncRevocations({}, internal(), {}, done),
      );
      const validated = await call((done) =>
        sidecar.auth.ValidateToken({ token }, new grpc.Metadata(), {}, done),
      );
      controlPlane.streaming = true;

      expect(synced.error).toBeNull();
      expect(synced.response.last_seq).toBeGreaterThanOrEqual(deletion.seq);
      expect(validated.error).toMatchObject({ code: grpc.status.UNAUTHENTICATED, details: 'token revoked' });
    });

    it('GetJwks answers the public keys it trusts', async () => {
      const { error, response } = await call<{ keys: JsonWebKeyMessage[] }>((done) =>
        sidecar.auth.GetJwks({}, new grpc.Metadata(), {}, done),
      );

      expect(error).toBeNull();
      expect(response.keys).toEqual([
        {
          kty: 'RSA',
          use: 'sig',
          alg: 'RS256',
          kid: key.kid,
          n: key.publicJwk.n,
          e: key.publicJwk.e,
          crv: '',
          x: '',
          y: '',
        },
      ]);
    });

    it.each([
      '',
      'platform.auth.v1.AuthService',
      'platform.masking.v1.MaskingService',
      'platform.ratelimit.v1.RateLimitService',
      'platform.flags.v1.FlagService',
    ])('the health service reports %p as SERVING', async (service) => {
      const { error, response } = await call<{ status: string }>((done) =>
        sidecar.health.Check({ service }, done),
      );

      expect(error).toBeNull();
      expect(response.status).toBe('SERVING');
    });

    it('server reflection lists the platform services and health', async () => {
      const services = await listServices(sidecar.address);

      expect(services).toEqual(
        expect.arrayContaining([
          'platform.auth.v1.AuthService',
          'platform.masking.v1.MaskingService',
          'platform.ratelimit.v1.RateLimitService',
          'platform.flags.v1.FlagService',
          'grpc.health.v1.Health',
        ]),
      );
    });

    it('HTTP /health answers 200 ok', async () => {
      const response = await fetch(sidecar.healthUrl);

      expect(response.status).toBe(200);
      await expect(response.json()).resolves.toEqual({ status: 'ok' });
    });
  });

  describe('WatchInvalidations', () => {
    let controlPlane: FakeControlPlane;
    let sidecar: Running | undefined;

    /** An open watch: the messages so far, and how the call ended (once it has). */
    const watch = (metadata = internal()) => {
      const stream = sidecar!.auth.WatchInvalidations({}, metadata);
      const watched = {
        stream,
        messages: [] as InvalidationMessage[],
        ended: undefined as grpc.StatusObject | undefined,
      };
      stream.on('data', (message: InvalidationMessage) => watched.messages.push(message));
      stream.on('error', () => undefined);
      stream.on('status', (status: grpc.StatusObject) => (watched.ended = status));
      return watched;
    };

    beforeEach(async () => {
      controlPlane = new FakeControlPlane();
      controlPlane.publish(key.publicJwk);
      controlPlane.revoke('jti', 'before-the-watch');
      sidecar = await boot(controlPlane);
      await sidecar.app.get(Readiness).whenReady();
    });

    afterEach(() => shutdown(sidecar));

    it('refuses a watcher without the internal token with UNAUTHENTICATED', async () => {
      const watched = watch(new grpc.Metadata());

      await eventually(() => expect(watched.ended?.code).toBe(grpc.status.UNAUTHENTICATED));
      expect(watched.messages).toEqual([]);
    });

    it('says ready first, with the seq already applied, the trusted keys and the deny-list', async () => {
      const watched = watch();

      await eventually(() => expect(watched.messages).toHaveLength(1));
      expect(watched.messages[0]).toMatchObject({
        change: 'ready',
        seq: 1,
        ready: {
          keys: [expect.objectContaining({ kid: key.kid, n: key.publicJwk.n, e: key.publicJwk.e })],
          deny_list: [
            { kind: 'jti', value: 'before-the-watch', created_at: 0, expires_at: expect.any(Number) },
          ],
        },
      });
      watched.stream.cancel();
    });

    it('sends each entry the control plane streams, with its seq', async () => {
      const watched = watch();
      await eventually(() => expect(watched.messages).toHaveLength(1));

      const entry = controlPlane.revoke('grant', 'grant-7');

      await eventually(() => expect(watched.messages).toHaveLength(2));
      expect(watched.messages[1]).toEqual({
        seq: entry.seq,
        change: 'revocation',
        revocation: {
          kind: 'grant',
          value: 'grant-7',
          created_at: entry.created_at,
          expires_at: entry.expires_at,
        },
      });
      watched.stream.cancel();
    });

    it('sends the entries SyncRevocations pulls, up to the seq it answers', async () => {
      const watched = watch();
      await eventually(() => expect(watched.messages).toHaveLength(1));
      controlPlane.streaming = false;
      const deletion = controlPlane.revoke('client', 'deleted-app');

      const synced = await call<{ last_seq: number }>((done) =>
        sidecar!.auth.SyncRevocations({}, internal(), {}, done),
      );

      await eventually(() => expect(watched.messages.at(-1)?.seq).toBe(synced.response.last_seq));
      expect(watched.messages).toContainEqual({
        seq: deletion.seq,
        change: 'revocation',
        revocation: {
          kind: 'client',
          value: 'deleted-app',
          created_at: deletion.created_at,
          expires_at: deletion.expires_at,
        },
      });
      watched.stream.cancel();
    });

    it('does not repeat an entry the full re-read brings again', async () => {
      const watched = watch();
      await eventually(() => expect(watched.messages).toHaveLength(1));

      await sidecar!.app.get(RevocationSync).reloadActive();
      const entry = controlPlane.revoke('jti', 'new-one');
      await eventually(() => expect(watched.messages.at(-1)?.seq).toBe(entry.seq));

      expect(watched.messages.map((message) => message.change)).toEqual(['ready', 'revocation']);
      watched.stream.cancel();
    });

    it('sends the whole new key set when a refresh changed it', async () => {
      const watched = watch();
      await eventually(() => expect(watched.messages).toHaveLength(1));
      const next = await createTestKey('RS256');
      controlPlane.publish(next.publicJwk);

      await sidecar!.app.get(KeyCache).refresh();

      await eventually(() => expect(watched.messages).toHaveLength(2));
      expect(watched.messages[1]).toMatchObject({
        change: 'keys_changed',
        keys_changed: { keys: [expect.objectContaining({ kid: next.kid, n: next.publicJwk.n })] },
      });
      watched.stream.cancel();
    });

    it('ends every watch when the sidecar shuts down', async () => {
      const watched = watch();
      await eventually(() => expect(watched.messages).toHaveLength(1));

      await shutdown(sidecar);
      sidecar = undefined;

      await eventually(() => expect(watched.ended).toBeDefined());
    });
  });

  describe('while the key set is still loading', () => {
    let controlPlane: FakeControlPlane;
    let sidecar: Running | undefined;
    let release: () => void;

    beforeAll(async () => {
      controlPlane = new FakeControlPlane();
      controlPlane.publish(key.publicJwk);
      release = controlPlane.holdJwks();
      sidecar = await boot(controlPlane);
    });

    afterAll(async () => {
      release();
      await shutdown(sidecar);
    });

    it('the health service reports NOT_SERVING', async () => {
      const { response } = await call<{ status: string }>((done) =>
        sidecar!.health.Check({ service: '' }, done),
      );

      expect(response.status).toBe('NOT_SERVING');
    });

    it('HTTP /health answers 503 starting', async () => {
      const response = await fetch(sidecar!.healthUrl);

      expect(response.status).toBe(503);
      await expect(response.json()).resolves.toEqual({ status: 'starting' });
    });

    it('ValidateToken fails closed with UNAVAILABLE', async () => {
      const token = await signAccessToken(key);

      const { error } = await call((done) =>
        sidecar!.auth.ValidateToken({ token }, new grpc.Metadata(), {}, done),
      );

      expect(error).toMatchObject({ code: grpc.status.UNAVAILABLE });
    });
  });

  it('refuses to boot on a non-loopback address', async () => {
    const config = testConfig({ grpcAddress: '0.0.0.0:0' });

    await expect(boot(new FakeControlPlane(), config)).rejects.toThrow(ConfigError);
  });
});
