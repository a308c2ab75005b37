import * as grpc from '@grpc/grpc-js';
import { readdirSync } from 'node:fs';
import { INTERNAL_TOKEN_METADATA, loadProto, PROTO_ROOT } from '@platform/grpc';
import fc from 'fast-check';
import { invokeRpc } from '../../support/grpc';
import { platformDatabases } from '../../support/databases';
import { startPlatform, type TestPlatform } from '../../support/platform';

interface Field {
  name: string;
  type: string;
  label: string;
}
interface Method {
  service: string;
  name: string;
  definition: grpc.MethodDefinition<unknown, unknown>;
  fields: Field[];
}

/** What a refusal may be; UNKNOWN, INTERNAL, UNAVAILABLE or a timeout would be our failure. */
const ACCEPTABLE = new Set([
  grpc.status.OK,
  grpc.status.INVALID_ARGUMENT,
  grpc.status.NOT_FOUND,
  grpc.status.ALREADY_EXISTS,
  grpc.status.PERMISSION_DENIED,
  grpc.status.RESOURCE_EXHAUSTED,
  grpc.status.FAILED_PRECONDITION,
  grpc.status.OUT_OF_RANGE,
  grpc.status.UNAUTHENTICATED,
]);
const LEAKS = [/\n\s+at [\w.<>]+ \(/, /node_modules/, /\b(SELECT|INSERT INTO)\b/, /TypeError|ReferenceError/];

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    '*',
    'admin.*',
    'eyJhbGciOiJub25lIn0.e30.',
    '{',
    '{"a":1}',
    '[]',
    '../../x',
    '\u0000',
    '🦄',
  ),
  fc.nat({ max: 20_000 }).map((n) => 'x'.repeat(n)),
);

/** A random value of a proto field's type (proto-loader's descriptor names). */
function valueOf(field: Field): fc.Arbitrary<unknown> {
  const scalar: fc.Arbitrary<unknown> = (() => {
    switch (field.type) {
      case 'TYPE_STRING':
        return text;
      case 'TYPE_BOOL':
        return fc.boolean();
      case 'TYPE_INT32':
      case 'TYPE_SINT32':
        return fc.integer();
      case 'TYPE_UINT32':
        return fc.nat();
      case 'TYPE_INT64':
      case 'TYPE_SINT64':
        return fc.integer({ min: -(2 ** 52), max: 2 ** 52 });
      case 'TYPE_UINT64':
        return fc.nat({ max: 2 ** 52 });
      case 'TYPE_DOUBLE':
      case 'TYPE_FLOAT':
        return fc.double({ noNaN: true });
      case 'TYPE_BYTES':
        return fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b));
      default:
        return fc.constant(undefined); // nested messages and enums: left unset
    }
  })();
  return field.label === 'LABEL_REPEATED'
    ? fc.array(scalar, { maxLength: 4 }).map((a) => a.filter((v) => v !== undefined))
    : scalar;
}

/**
 * Calls per run: the full count on SQLite; on Postgres a fresh random sample of half as many
 * each run (fast-check's seed, printed with a failure to replay it), enough to call every RPC.
 */
const RUNS = { SQLite: 800, Postgres: 400 };

/**
 * Random, malformed and oversized messages to every RPC of the sidecar's services, with no,
 * a wrong or the right internal credential: never UNKNOWN, INTERNAL or UNAVAILABLE, nothing
 * leaked in the details, and the sidecar still serving afterwards.
 */
describe.each(platformDatabases('the gRPC fuzz suite'))(
  'fuzzing every RPC of the sidecar on $name',
  (database) => {
    let platform: TestPlatform;
    let drop: () => Promise<void>;
    const methods: Method[] = [];
    const clients = new Map<string, grpc.Client>();

    beforeAll(async () => {
      const db = await database.create();
      drop = db.drop;
      platform = await startPlatform(db.url ? { databaseUrl: db.url } : {});
      // Every .proto of the platform: a service added later is fuzzed without touching this file.
      const files = (readdirSync(PROTO_ROOT, { recursive: true }) as string[]).filter((f) =>
        f.endsWith('.proto'),
      );
      for (const file of files) {
        const definition = loadProto(file);
        for (const [service, value] of Object.entries(definition)) {
          if (!('format' in value) && typeof value === 'object') {
            const serviceDefinition = value as unknown as grpc.ServiceDefinition;
            const Client = grpc.makeGenericClientConstructor(serviceDefinition, service);
            clients.set(service, new Client(platform.sidecarAddress, grpc.credentials.createInsecure()));
            for (const [name, method] of Object.entries(serviceDefinition)) {
              // proto-loader's definitions carry the request's descriptor.
              const { type } = (method as unknown as { requestType: { type: { field: Field[] } } })
                .requestType;
              methods.push({ service, name, definition: method, fields: type.field });
            }
          }
        }
      }
    });
    afterAll(async () => {
      for (const client of clients.values()) client.close();
      await platform?.stop();
      await drop?.();
    });

    it('answers every call with a status that says what was wrong, never a failure of its own', async () => {
      expect(methods.length).toBeGreaterThanOrEqual(12);
      const call = fc.constantFrom(...methods).chain((method) =>
        fc.record({
          method: fc.constant(method),
          message: fc.record(Object.fromEntries(method.fields.map((f) => [f.name, valueOf(f)])), {
            requiredKeys: [],
          }),
          credential: fc.constantFrom('none', 'internal', 'wrong'),
        }),
      );
      const called = new Set<string>();
      await fc.assert(
        fc.asyncProperty(call, async ({ method, message, credential }) => {
          const metadata = new grpc.Metadata();
          if (credential === 'internal') metadata.set(INTERNAL_TOKEN_METADATA, platform.internalToken);
          if (credential === 'wrong') metadata.set(INTERNAL_TOKEN_METADATA, 'not-the-token');
          const client = clients.get(method.service)!;
          const { code, details } = await invokeRpc(client, method.definition, message, metadata);
          const where = `${method.service}/${method.name} -> ${grpc.status[code]}: ${details}`;
          called.add(`${method.service}/${method.name}`);
          expect({ where, acceptable: ACCEPTABLE.has(code) }).toEqual({ where, acceptable: true });
          for (const leak of LEAKS)
            expect({ where, leak: leak.test(details) }).toEqual({ where, leak: false });
          expect({ where, secret: details.includes(platform.internalToken) }).toEqual({
            where,
            secret: false,
          });
        }),
        { numRuns: RUNS[database.name] },
      );
      expect(called.size).toBe(methods.length);
    }, 180_000);

    it('still validates tokens afterwards', async () => {
      const auth = clients.get('platform.auth.v1.AuthService')!;
      const { code } = await invokeRpc(auth, methods.find((m) => m.name === 'GetJwks')!.definition, {});
      expect(grpc.status[code]).toBe('OK');
    });
  },
);
