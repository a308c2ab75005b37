import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { EntitlementsClient } from './entitlements-client';
import { QuotaExhaustedError, QuotasClient } from './quotas-client';

/** A status with a RetryInfo of 3600 s, as the sidecar sends it (retry-info.spec.ts). */
const RETRY_IN_AN_HOUR =
  'CAgSJnF1b3RhIGV4cG9ydHMgb2YgdGVuYW50IGFjbWUgZXhoYXVzdGVkGjEKKHR5cGUuZ29vZ2xlYXBpcy5jb20vZ29vZ2xlLnJwYy5SZXRyeUluZm8SBQoDCJAc';
const START = new Date('2026-11-01T00:00:00Z');
const END = new Date('2026-12-01T00:00:00Z');
const seconds = (at: Date) => ({ seconds: at.getTime() / 1000, nanos: 0 });

type Handler = (request: Record<string, unknown>) => object | grpc.ServiceError;

/**
 * The SDK's EntitlementsClient and QuotasClient against a stand-in sidecar serving the real
 * .proto services (the clients load the package's own copy, as installed): what each sends, and how
 * each answer and failure comes back. The real sidecar: test/e2e/plans/plans-grpc.e2e-spec.ts.
 */
describe('the SDK’s entitlements and quotas clients', () => {
  let server: grpc.Server;
  let address: string;
  const requests: Array<{ rpc: string; request: Record<string, unknown> }> = [];
  const answers: Record<string, Handler> = {};

  beforeAll(async () => {
    const definition = loadSync(
      ['platform/entitlements/v1/entitlements.proto', 'platform/quotas/v1/quotas.proto'],
      {
        keepCase: true,
        longs: Number,
        enums: String,
        defaults: true,
        oneofs: true,
        includeDirs: [join(__dirname, '../../../proto')],
      },
    );
    const loaded = grpc.loadPackageDefinition(definition) as unknown as {
      platform: {
        entitlements: { v1: { EntitlementService: { service: grpc.ServiceDefinition } } };
        quotas: { v1: { QuotaService: { service: grpc.ServiceDefinition } } };
      };
    };
    const serve =
      (rpc: string): grpc.handleUnaryCall<Record<string, unknown>, object> =>
      (call, callback) => {
        requests.push({ rpc, request: call.request });
        const answer = answers[rpc](call.request);
        if (answer instanceof Error) callback(answer);
        else callback(null, answer);
      };
    server = new grpc.Server();
    server.addService(loaded.platform.entitlements.v1.EntitlementService.service, {
      CheckEntitlement: serve('CheckEntitlement'),
      ListEntitlements: serve('ListEntitlements'),
    });
    server.addService(loaded.platform.quotas.v1.QuotaService.service, {
      ConsumeQuota: serve('ConsumeQuota'),
      GetQuotaUsage: serve('GetQuotaUsage'),
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    address = `127.0.0.1:${port}`;
  });
  afterAll(() => server.forceShutdown());
  beforeEach(() => (requests.length = 0));

  const tokens = { getToken: async () => 'the-token' };
  const failure = (code: grpc.status, details: string, trailers?: string): grpc.ServiceError => {
    const metadata = new grpc.Metadata();
    if (trailers) metadata.set('grpc-status-details-bin', Buffer.from(trailers, 'base64'));
    return Object.assign(new Error(details), { code, details, metadata });
  };

  describe(EntitlementsClient.name, () => {
    it('checks a feature with the token and tenant, and reads its value', async () => {
      const client = new EntitlementsClient({ sidecarAddress: address, tokens, tenant: 'acme' });
      answers.CheckEntitlement = ({ feature }) =>
        feature === 'seats'
          ? { entitled: true, value: { numberValue: 50 }, plan: 'pro' }
          : { entitled: false, plan: '' };
      try {
        expect(await client.check('seats', { amount: 20 })).toEqual({
          entitled: true,
          value: 50,
          plan: 'pro',
        });
        expect(await client.check('sso', { tenant: 'globex' })).toEqual({ entitled: false, plan: null });
      } finally {
        client.close();
      }
      expect(requests.map((r) => r.request)).toEqual([
        { token: 'the-token', tenant: 'acme', feature: 'seats', amount: 20 },
        { token: 'the-token', tenant: 'globex', feature: 'sso', amount: 0 },
      ]);
    });

    it('lists the plan, features of each type, and quotas', async () => {
      const client = new EntitlementsClient({ sidecarAddress: address, tokens });
      answers.ListEntitlements = () => ({
        plan: 'pro',
        zone: 'Europe/Paris',
        features: {
          sso: { boolValue: true },
          support: { stringValue: 'business' },
          seats: { numberValue: 50 },
        },
        quotas: { exports: { limit: 100, period: 'day', enforcement: 'soft', thresholds: [80, 100] } },
      });
      try {
        expect(await client.list()).toEqual({
          plan: 'pro',
          zone: 'Europe/Paris',
          features: { sso: true, support: 'business', seats: 50 },
          quotas: { exports: { limit: 100, period: 'day', enforcement: 'soft', thresholds: [80, 100] } },
        });
      } finally {
        client.close();
      }
      expect(requests[0].request).toEqual({ token: 'the-token', tenant: '' });
    });

    it('throws the gRPC error of a refusal', async () => {
      const client = new EntitlementsClient({ sidecarAddress: address, tokens });
      answers.CheckEntitlement = () => failure(grpc.status.PERMISSION_DENIED, 'denied entitlements.read');
      try {
        await expect(client.check('sso')).rejects.toMatchObject({
          code: grpc.status.PERMISSION_DENIED,
          details: 'denied entitlements.read',
        });
      } finally {
        client.close();
      }
    });
  });

  describe(QuotasClient.name, () => {
    const counted = {
      limited: true,
      granted: true,
      replayed: false,
      used: 3,
      limit: 5,
      remaining: 2,
      period_start: seconds(START),
      reset_time: seconds(END),
      enforcement: 'hard',
    };

    it('consumes with units and an idempotency key, and answers the window with dates', async () => {
      const client = new QuotasClient({ sidecarAddress: address, tokens, tenant: 'acme' });
      answers.ConsumeQuota = () => counted;
      try {
        expect(await client.consume('exports', { units: 3, idempotencyKey: 'export-42' })).toEqual({
          limited: true,
          granted: true,
          replayed: false,
          used: 3,
          limit: 5,
          remaining: 2,
          periodStart: START,
          resetTime: END,
          enforcement: 'hard',
        });
        await client.consume('exports');
      } finally {
        client.close();
      }
      expect(requests.map((r) => r.request)).toEqual([
        { token: 'the-token', tenant: 'acme', meter: 'exports', units: 3, idempotency_key: 'export-42' },
        { token: 'the-token', tenant: 'acme', meter: 'exports', units: 0, idempotency_key: '' },
      ]);
    });

    it('answers a meter no quota limits as not limited', async () => {
      const client = new QuotasClient({ sidecarAddress: address, tokens });
      answers.ConsumeQuota = () => ({ limited: false, granted: true });
      answers.GetQuotaUsage = () => ({ ...counted, granted: false, used: 5, remaining: 0 });
      try {
        expect(await client.consume('uploads')).toEqual({ limited: false, granted: true });
        expect(await client.usage('exports', { tenant: 'acme' })).toMatchObject({ granted: false, used: 5 });
      } finally {
        client.close();
      }
      expect(requests[1]).toEqual({
        rpc: 'GetQuotaUsage',
        request: { token: 'the-token', tenant: 'acme', meter: 'exports' },
      });
    });

    it('throws a QuotaExhaustedError with the RetryInfo delay past a hard limit, other failures as they are', async () => {
      const client = new QuotasClient({ sidecarAddress: address, tokens });
      answers.ConsumeQuota = () =>
        failure(grpc.status.RESOURCE_EXHAUSTED, 'quota exports of tenant acme exhausted', RETRY_IN_AN_HOUR);
      try {
        const refused = await client.consume('exports').catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(QuotaExhaustedError);
        expect(refused).toMatchObject({
          meter: 'exports',
          retryAfterSeconds: 3600,
          message: 'quota exports of tenant acme exhausted',
          cause: { code: grpc.status.RESOURCE_EXHAUSTED },
        });

        answers.ConsumeQuota = () => failure(grpc.status.UNAVAILABLE, 'quota Redis unavailable');
        const unavailable = await client.consume('exports').catch((error: unknown) => error);
        expect(unavailable).not.toBeInstanceOf(QuotaExhaustedError);
        expect(unavailable).toMatchObject({ code: grpc.status.UNAVAILABLE });
      } finally {
        client.close();
      }
    });
  });
});
