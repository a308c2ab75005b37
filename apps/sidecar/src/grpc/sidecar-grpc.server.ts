import {
  type Metadata,
  Server,
  ServerCredentials,
  type sendUnaryData,
  type ServerErrorResponse,
  type ServerUnaryCall,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import type { PackageDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { Logger } from '@nestjs/common';
import { ServerGrpc } from '@nestjs/microservices';
import { assertLoopbackBinding, isLoopbackAddress } from '@platform/config';
import {
  AUDIT_PROTO,
  AUDIT_SERVICE_NAME,
  MASKING_PROTO,
  MASKING_SERVICE_NAME,
  RATE_LIMIT_PROTO,
  RATE_LIMIT_SERVICE_NAME,
  FLAG_PROTO,
  FLAG_SERVICE_NAME,
  SECRET_PROTO,
  SECRET_SERVICE_NAME,
  JOB_PROTO,
  JOB_SERVICE_NAME,
  ENTITLEMENT_PROTO,
  ENTITLEMENT_SERVICE_NAME,
  QUOTA_PROTO,
  QUOTA_SERVICE_NAME,
  AUTH_PROTO,
  AUTH_SERVICE_NAME,
  correlatedHandlers,
  measuredHandlers,
  loadProto,
  POLICY_PROTO,
  POLICY_SERVICE_NAME,
  TENANT_PROTO,
  TENANT_SERVICE_NAME,
} from '@platform/grpc';
import { HealthImplementation, service as healthService } from 'grpc-health-check';
import { isObservable } from 'rxjs';
import type { SidecarConfig } from '../config/sidecar-config';
import { undeclaredHandlers } from './rpc-authority';
import { storableRequests } from './storable-requests';

/** Every platform service this server hosts, as health reports them ('' is the whole server). */
const SERVICE_NAMES = [
  '',
  AUTH_SERVICE_NAME,
  POLICY_SERVICE_NAME,
  TENANT_SERVICE_NAME,
  AUDIT_SERVICE_NAME,
  MASKING_SERVICE_NAME,
  RATE_LIMIT_SERVICE_NAME,
  FLAG_SERVICE_NAME,
  SECRET_SERVICE_NAME,
  JOB_SERVICE_NAME,
  ENTITLEMENT_SERVICE_NAME,
  QUOTA_SERVICE_NAME,
] as const;
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * The sidecar's gRPC transport: Nest's gRPC server (so the `@GrpcMethod` controllers get guards
 * and exception filters like any Nest route) with what the platform adds around it: the bound
 * port (configured port 0 in tests), `grpc.health.v1.Health` (NOT_SERVING until `setServing`),
 * server reflection, the caller's correlation id around every handler, and a drain on close
 * that ends open streams first. Refuses to start a handler without an RPC_AUTHORITY entry, and a
 * non-loopback address unless SIDECAR_ALLOW_NON_LOOPBACK=true.
 */
export class SidecarGrpcServer extends ServerGrpc {
  private readonly log = new Logger('GrpcServer');
  private readonly health = new HealthImplementation(
    Object.fromEntries(SERVICE_NAMES.map((name) => [name, 'NOT_SERVING'])),
  );
  private readonly drainListeners: Array<() => void> = [];
  private readonly packageDefinition: PackageDefinition;
  private boundPort = 0;

  constructor(private readonly config: SidecarConfig) {
    // Loaded together: the well-known types the services import are one file for reflection.
    const packageDefinition: PackageDefinition = loadProto([
      AUTH_PROTO,
      POLICY_PROTO,
      TENANT_PROTO,
      AUDIT_PROTO,
      MASKING_PROTO,
      RATE_LIMIT_PROTO,
      FLAG_PROTO,
      SECRET_PROTO,
      JOB_PROTO,
      ENTITLEMENT_PROTO,
      QUOTA_PROTO,
    ]);
    super({
      package: SERVICE_NAMES.filter((name) => name !== '').map(packageOf),
      packageDefinition,
    });
    // loadSidecarConfig() already refused; checked again for a config that did not come from
    // the environment, before anything starts.
    assertLoopbackBinding(config);
    this.packageDefinition = packageDefinition;
  }

  /** The port actually bound (useful when the configured port is 0). */
  get port(): number {
    return this.boundPort;
  }

  /** Health of every hosted service: SERVING once the keys and the deny-list are loaded. */
  setServing(serving: boolean): void {
    for (const name of SERVICE_NAMES) this.health.setStatus(name, serving ? 'SERVING' : 'NOT_SERVING');
    if (serving) this.log.log('serving: keys and deny-list loaded');
  }

  /** Runs `listener` when the server starts draining, before in-flight calls are waited for. */
  onDrain(listener: () => void): void {
    this.drainListeners.push(listener);
  }

  override async createClient(): Promise<Server> {
    const server = new Server({
      'grpc.max_receive_message_length': 1024 * 1024,
      'grpc.keepalive_permit_without_calls': 1,
    });
    this.boundPort = await new Promise<number>((resolve, reject) =>
      server.bindAsync(this.config.grpcAddress, ServerCredentials.createInsecure(), (error, port) =>
        error ? reject(error) : resolve(port),
      ),
    );
    this.log.log(`gRPC listening on ${this.config.grpcAddress} (port ${this.boundPort})`);
    if (this.config.allowNonLoopback && !isLoopbackAddress(this.config.grpcAddress)) {
      this.log.warn('bound to a non-loopback address (SIDECAR_ALLOW_NON_LOOPBACK=true)');
    }
    return server;
  }

  /**
   * Nest adds the controllers' services; health and reflection are the server's own. A handler
   * whose RPC is not declared in RPC_AUTHORITY does not start (docs/authorization.md, "RPCs").
   */
  override async bindEvents(): Promise<void> {
    const undeclared = undeclaredHandlers(this.getHandlers().keys());
    if (undeclared.length > 0) {
      throw new Error(
        `RPCs without an entry in RPC_AUTHORITY (apps/sidecar/src/grpc/rpc-authority.ts): ` +
          `${undeclared.join(', ')}; declare the permission and tenant source of each`,
      );
    }
    await super.bindEvents();
    this.addPlatformServices(this.grpcClient as Server);
  }

  /**
   * Unary calls answer straight from the handler's promise: Nest's own version wraps each call
   * in an Observable, a subscription and a copy of the call, which cost more than the token
   * check itself on ValidateToken. A failure reaches here as GrpcStatusFilter's Observable.
   */
  override createUnaryServiceMethod(methodHandler: NestHandler): UnaryHandler {
    return (call, callback) => {
      methodHandler(call.request, call.metadata, call).then(
        (result) => {
          if (!isObservable(result)) return callback(null, result);
          result.subscribe({ next: (value) => callback(null, value), error: (error) => callback(error) });
        },
        (error: unknown) => callback(error as ServerErrorResponse),
      );
    };
  }

  override async createService(grpcService: unknown, name: string): Promise<UntypedServiceImplementation> {
    const handlers = (await super.createService(grpcService, name)) as UntypedServiceImplementation;
    return correlatedHandlers(measuredHandlers(storableRequests(handlers, name), name));
  }

  override async close(): Promise<void> {
    const server = this.grpcClient as Server | null;
    if (!server) return;
    this.grpcClient = null;
    this.setServing(false);
    // Watch streams never end on their own: end them, or the drain waits for the forced stop.
    for (const listener of this.drainListeners) listener();
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, SHUTDOWN_GRACE_MS);
      force.unref();
      server.tryShutdown(() => {
        clearTimeout(force);
        resolve();
      });
    });
  }

  private addPlatformServices(server: Server): void {
    this.health.addToServer(server);
    // Reflection describes every file it is given: every platform package, plus
    // health.proto (reached through one of its message definitions, which carries the file
    // descriptors).
    new ReflectionService({
      ...this.packageDefinition,
      'grpc.health.v1.HealthCheckRequest': healthService.Check.requestType,
    } as never).addToServer(server);
  }
}

/** What Nest hands the transport for one method: its guards, filters and the controller method. */
type NestHandler = (
  request: unknown,
  metadata: Metadata,
  call: ServerUnaryCall<unknown, unknown>,
) => Promise<unknown>;
type UnaryHandler = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => void;

/** `platform.auth.v1.AuthService` -> `platform.auth.v1`. */
function packageOf(serviceName: string): string {
  return serviceName.slice(0, serviceName.lastIndexOf('.'));
}
