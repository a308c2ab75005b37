import * as grpc from '@grpc/grpc-js';
import { BearerError, DomainError } from '@platform/domain';
import { CORRELATION_HEADER, withCorrelationId } from '@platform/telemetry';
import {
  AUTH_PROTO,
  DECIDED_BY_METADATA,
  DECISION_ID_METADATA,
  INTERNAL_TOKEN_METADATA,
  loadProto,
} from '@platform/grpc';
import { HealthImplementation } from 'grpc-health-check';
import { PermissionDeniedError } from '../auth/permission-denied.error';
import { claimsFactory } from '../testing/fakes';
import { SidecarClient } from './sidecar.client';
import { Logger } from '@nestjs/common';

type Handler = grpc.handleUnaryCall<{ token?: string }, unknown>;

/** A real gRPC server speaking platform.auth.v1 and grpc.health.v1, with scripted answers. */
beforeAll(() => Logger.overrideLogger(false));
afterAll(() => Logger.overrideLogger(['log', 'error', 'warn']));

describe(SidecarClient.name, () => {
  let server: grpc.Server;
  let address: string;
  let validate: jest.Mock<void, Parameters<Handler>>;
  let sync: jest.Mock<void, Parameters<Handler>>;
  let authorize: jest.Mock<void, Parameters<Handler>>;
  let revoke: jest.Mock<void, Parameters<Handler>>;
  let health: HealthImplementation;

  beforeAll(async () => {
    const definition = grpc.loadPackageDefinition(loadProto(AUTH_PROTO)) as unknown as {
      platform: { auth: { v1: { AuthService: grpc.ServiceClientConstructor } } };
    };
    validate = jest.fn();
    sync = jest.fn();
    authorize = jest.fn();
    revoke = jest.fn();
    server = new grpc.Server();
    server.addService(definition.platform.auth.v1.AuthService.service, {
      ValidateToken: (call: Parameters<Handler>[0], callback: Parameters<Handler>[1]) =>
        validate(call, callback),
      SyncRevocations: (call: Parameters<Handler>[0], callback: Parameters<Handler>[1]) =>
        sync(call, callback),
      Authorize: (call: Parameters<Handler>[0], callback: Parameters<Handler>[1]) =>
        authorize(call, callback),
      RevokeToken: (call: Parameters<Handler>[0], callback: Parameters<Handler>[1]) => revoke(call, callback),
      GetJwks: (_: unknown, callback: grpc.sendUnaryData<unknown>) => callback(null, { keys: [] }),
    });
    health = new HealthImplementation({ '': 'SERVING', 'platform.auth.v1.AuthService': 'SERVING' });
    health.addToServer(server);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    address = `127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  });

  let client: SidecarClient;
  beforeEach(() => {
    validate.mockReset();
    sync.mockReset();
    authorize.mockReset();
    revoke.mockReset();
    health.setStatus('platform.auth.v1.AuthService', 'SERVING');
    client = new SidecarClient(address, 'internal-secret');
  });
  afterEach(() => client.onApplicationShutdown());

  it('returns the claims of an accepted token and sends the correlation id and internal token', async () => {
    const claims = claimsFactory();
    validate.mockImplementation((_call, callback) => callback(null, { claims }));
    await expect(withCorrelationId('req-9', () => client.validateToken('tok'))).resolves.toEqual(claims);
    const call = validate.mock.calls[0][0];
    // No DPoP proof: a Bearer token (the proto's empty strings).
    expect(call.request).toEqual({
      token: 'tok',
      audience: '',
      dpop_proof: '',
      http_method: '',
      http_url: '',
    });
    expect(call.metadata.get(CORRELATION_HEADER)).toEqual(['req-9']);
    expect(call.metadata.get(INTERNAL_TOKEN_METADATA)).toEqual(['internal-secret']);
  });

  it('sends the audience asked about and answers the actor chain and impersonation mode', async () => {
    const act = { sub: 'support-1', client_id: 'console', act: { sub: 'gateway', client_id: '', act: null } };
    const claims = claimsFactory({ aud: 'https://api.reports.example', act, impersonation: 'read_only' });
    validate.mockImplementation((_call, callback) => callback(null, { claims }));

    await expect(client.validateToken('tok', 'https://api.reports.example')).resolves.toEqual(claims);
    expect(validate.mock.calls[0][0].request).toEqual({
      token: 'tok',
      audience: 'https://api.reports.example',
      dpop_proof: '',
      http_method: '',
      http_url: '',
    });
  });

  it('turns UNAUTHENTICATED into invalid_token with the reason', async () => {
    validate.mockImplementation((_call, callback) =>
      callback({ code: grpc.status.UNAUTHENTICATED, details: 'token revoked' }),
    );
    await expect(client.validateToken('tok')).rejects.toEqual(
      new BearerError('invalid_token', 'token revoked'),
    );
  });

  it('turns INVALID_ARGUMENT into invalid_token', async () => {
    validate.mockImplementation((_call, callback) =>
      callback({ code: grpc.status.INVALID_ARGUMENT, details: 'empty token' }),
    );
    await expect(client.validateToken('tok')).rejects.toBeInstanceOf(BearerError);
  });

  it.each([
    ['INTERNAL', grpc.status.INTERNAL],
    ['UNAVAILABLE', grpc.status.UNAVAILABLE],
    ['PERMISSION_DENIED', grpc.status.PERMISSION_DENIED],
  ])('fails closed on %s', async (_name, code) => {
    validate.mockImplementation((_call, callback) => callback({ code, details: 'x' }));
    await expect(client.validateToken('tok')).rejects.toEqual(
      new DomainError('unavailable', 'Token validation is unavailable'),
    );
  });

  it('fails closed when the sidecar is not there at all', async () => {
    const absent = new SidecarClient('127.0.0.1:1', 'internal-secret');
    await expect(absent.validateToken('tok')).rejects.toMatchObject({ code: 'unavailable' });
    absent.onApplicationShutdown();
  });

  describe('authorize', () => {
    const denied = (decisionId?: string, decidedBy?: string): grpc.StatusObject => {
      const metadata = new grpc.Metadata();
      if (decisionId !== undefined) metadata.set(DECISION_ID_METADATA, decisionId);
      if (decidedBy !== undefined) metadata.set(DECIDED_BY_METADATA, decidedBy);
      return { code: grpc.status.PERMISSION_DENIED, details: 'denied', metadata };
    };

    it('answers the claims and the decision, sending the action, tenant, request id and internal token', async () => {
      const claims = claimsFactory({ tenant: 'acme', roles: ['user'] });
      authorize.mockImplementation((_call, callback) =>
        callback(null, { claims, decision_id: 'd-1', decided_by: ['token-scope', 'user-own-tenant'] }),
      );

      await expect(
        withCorrelationId('req-3', () => client.authorize('tok', 'users.read', 'acme')),
      ).resolves.toEqual({
        claims,
        decisionId: 'd-1',
        decidedBy: ['token-scope', 'user-own-tenant'],
      });
      const call = authorize.mock.calls[0][0];
      // No audience: the backend authorizes for its own API, the issuer's.
      expect(call.request).toEqual({
        token: 'tok',
        action: 'users.read',
        resource_tenant: 'acme',
        audience: '',
        dpop_proof: '',
        http_method: '',
        http_url: '',
      });
      expect(call.metadata.get(CORRELATION_HEADER)).toEqual(['req-3']);
      expect(call.metadata.get(INTERNAL_TOKEN_METADATA)).toEqual(['internal-secret']);
    });

    it('turns UNAUTHENTICATED into invalid_token with the reason', async () => {
      authorize.mockImplementation((_call, callback) =>
        callback({ code: grpc.status.UNAUTHENTICATED, details: 'token expired' }),
      );

      await expect(client.authorize('tok', 'users.read', 'acme')).rejects.toEqual(
        new BearerError('invalid_token', 'token expired'),
      );
    });

    it('turns PERMISSION_DENIED into a refusal naming the decision id and the deciding policies', async () => {
      authorize.mockImplementation((_call, callback) =>
        callback(denied('d-9', 'token-scope,tenant-isolation')),
      );

      const refusal = await client.authorize('tok', 'users.write', 'globex').catch((e: unknown) => e);

      expect(refusal).toBeInstanceOf(PermissionDeniedError);
      expect(refusal).toMatchObject({
        code: 'insufficient_scope',
        requiredScope: 'users.write',
        decisionId: 'd-9',
        decidedBy: ['token-scope', 'tenant-isolation'],
      });
    });

    it('reports a default deny (no deciding policy) with an empty decided_by', async () => {
      authorize.mockImplementation((_call, callback) => callback(denied('d-10')));

      await expect(client.authorize('tok', 'users.write', 'acme')).rejects.toMatchObject({
        decisionId: 'd-10',
        decidedBy: [],
      });
    });

    it.each([
      ['INVALID_ARGUMENT', grpc.status.INVALID_ARGUMENT],
      ['INTERNAL', grpc.status.INTERNAL],
      ['UNAVAILABLE', grpc.status.UNAVAILABLE],
      ['UNIMPLEMENTED', grpc.status.UNIMPLEMENTED],
    ])('fails closed on %s', async (_name, code) => {
      authorize.mockImplementation((_call, callback) => callback({ code, details: 'x' }));

      await expect(client.authorize('tok', 'users.read', 'acme')).rejects.toEqual(
        new DomainError('unavailable', 'Authorization is unavailable'),
      );
    });

    it('fails closed when the sidecar is not there at all', async () => {
      const absent = new SidecarClient('127.0.0.1:1', 'internal-secret');
      await expect(absent.authorize('tok', 'users.read', '')).rejects.toMatchObject({
        code: 'unavailable',
      });
      absent.onApplicationShutdown();
    });
  });

  it('asks the sidecar to sync revocations with the internal token and answers its applied seq', async () => {
    sync.mockImplementation((_call, callback) => callback(null, { last_seq: 3 }));
    await expect(client.syncRevocations()).resolves.toBe(3);
    expect(sync.mock.calls[0][0].metadata.get(INTERNAL_TOKEN_METADATA)).toEqual(['internal-secret']);
  });

  describe('revokeToken', () => {
    it('sends the token with the internal token and the correlation id', async () => {
      revoke.mockImplementation((_call, callback) => callback(null, {}));
      await expect(withCorrelationId('req-4', () => client.revokeToken('tok'))).resolves.toBeUndefined();
      const call = revoke.mock.calls[0][0];
      expect(call.request).toEqual({ token: 'tok' });
      expect(call.metadata.get(INTERNAL_TOKEN_METADATA)).toEqual(['internal-secret']);
      expect(call.metadata.get(CORRELATION_HEADER)).toEqual(['req-4']);
    });

    it('treats a token the control plane cannot read as revoked (RFC 7009 answers alike)', async () => {
      revoke.mockImplementation((_call, callback) =>
        callback({ code: grpc.status.INVALID_ARGUMENT, details: 'malformed' }),
      );
      await expect(client.revokeToken('tok')).resolves.toBeUndefined();
    });

    it('fails closed when the sidecar cannot revoke', async () => {
      revoke.mockImplementation((_call, callback) =>
        callback({ code: grpc.status.UNAVAILABLE, details: 'x' }),
      );
      await expect(client.revokeToken('tok')).rejects.toEqual(
        new DomainError('unavailable', 'Token revocation is unavailable'),
      );
    });
  });

  it('reports a failed sync as unavailable', async () => {
    sync.mockImplementation((_call, callback) =>
      callback({ code: grpc.status.UNAUTHENTICATED, details: 'no token' }),
    );
    await expect(client.syncRevocations()).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('is connected when the auth service is SERVING', async () => {
    await expect(client.state()).resolves.toBe('connected');
  });

  it('is unavailable when the auth service is NOT_SERVING', async () => {
    health.setStatus('platform.auth.v1.AuthService', 'NOT_SERVING');
    await expect(client.state()).resolves.toBe('unavailable');
  });

  it('is unavailable when nothing listens', async () => {
    const absent = new SidecarClient('127.0.0.1:1', 'internal-secret');
    await expect(absent.state()).resolves.toBe('unavailable');
    absent.onApplicationShutdown();
  });
});
