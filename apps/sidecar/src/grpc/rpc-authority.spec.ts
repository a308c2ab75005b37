import { readdirSync } from 'node:fs';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { loadProto, PROTO_ROOT } from '@platform/grpc';
import { SidecarModule } from '../sidecar.module';
import { testConfig } from '../testing/test-config';
import { InternalTokenGuard } from './internal-token.guard';
import { RPC_AUTHORITY, type RpcAuthority, undeclaredHandlers } from './rpc-authority';
import { SidecarGrpcServer } from './sidecar-grpc.server';

/** `Service/Method` of every RPC of every service in proto/ (a service added later is read too). */
function protoRpcs(): string[] {
  const files = (readdirSync(PROTO_ROOT, { recursive: true }) as string[]).filter((f) =>
    f.endsWith('.proto'),
  );
  const rpcs = new Set<string>();
  for (const file of files) {
    for (const [service, definition] of Object.entries(loadProto(file))) {
      // Messages and enums carry `format`; a service is its methods.
      if ('format' in definition) continue;
      const name = service.slice(service.lastIndexOf('.') + 1);
      for (const method of Object.keys(definition)) rpcs.add(`${name}/${method}`);
    }
  }
  return [...rpcs].sort();
}

/** Every `@GrpcMethod` of the sidecar's controllers, with whether it carries the internal token guard. */
function handlers(): Array<{ rpc: string; internalGuard: boolean }> {
  const { controllers = [] } = SidecarModule.forRoot({ config: testConfig() }, {} as SidecarGrpcServer);
  return controllers.flatMap((controller) => {
    const prototype = (controller as { prototype: Record<string, unknown> }).prototype;
    return Object.getOwnPropertyNames(prototype).flatMap((key) => {
      const method = prototype[key];
      if (typeof method !== 'function') return [];
      const patterns = (Reflect.getMetadata(PATTERN_METADATA, method) ?? []) as Array<{
        service: string;
        rpc: string;
      }>;
      const guards = (Reflect.getMetadata(GUARDS_METADATA, method) ?? []) as unknown[];
      return patterns.map(({ service, rpc }) => ({
        rpc: `${service}/${rpc}`,
        internalGuard: guards.includes(InternalTokenGuard),
      }));
    });
  });
}

const declared = RPC_AUTHORITY as Record<string, RpcAuthority>;

describe('RPC_AUTHORITY', () => {
  it('declares every RPC of every service in proto/', () => {
    const undeclared = protoRpcs().filter((rpc) => !(rpc in declared));

    expect(undeclared).toEqual([]);
  });

  it('declares no RPC that proto/ does not define', () => {
    const rpcs = new Set(protoRpcs());

    expect(Object.keys(declared).filter((rpc) => !rpcs.has(rpc))).toEqual([]);
  });

  it('has a handler for every RPC it declares, and a declaration for every handler', () => {
    const handled = handlers().map(({ rpc }) => rpc);

    expect(handled.sort()).toEqual(Object.keys(declared).sort());
  });

  it('puts the internal token guard on exactly the RPCs declared internal', () => {
    for (const { rpc, internalGuard } of handlers()) {
      expect({ rpc, internalGuard }).toEqual({ rpc, internalGuard: declared[rpc].permission === 'internal' });
    }
  });

  it('marks platformWide only a request-or-token RPC, the one source it changes', () => {
    for (const [rpc, { tenant, platformWide }] of Object.entries(declared)) {
      if (platformWide) expect({ rpc, tenant }).toEqual({ rpc, tenant: 'request-or-token' });
    }
  });
});

describe(undeclaredHandlers.name, () => {
  const pattern = (service: string, rpc: string) => JSON.stringify({ service, rpc, streaming: 'no_stream' });

  it('names the handlers without an entry, by their short or fully qualified service', () => {
    expect(
      undeclaredHandlers([
        pattern('AuthService', 'ValidateToken'),
        pattern('platform.flags.v1.FlagService', 'EvaluateFlag'),
        pattern('FlagService', 'ListFlags'),
        'not-a-grpc-pattern',
      ]),
    ).toEqual(['FlagService/ListFlags', 'not-a-grpc-pattern']);
  });
});

describe('SidecarGrpcServer', () => {
  it('does not start a handler whose RPC is not declared, saying which and where to declare it', async () => {
    const server = new SidecarGrpcServer(testConfig());
    server.addHandler({ service: 'FlagService', rpc: 'ListFlags', streaming: 'no_stream' }, async () => ({}));

    await expect(server.bindEvents()).rejects.toThrow(
      /RPCs without an entry in RPC_AUTHORITY \(apps\/sidecar\/src\/grpc\/rpc-authority\.ts\): FlagService\/ListFlags/,
    );
  });
});
