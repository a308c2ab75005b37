import { Server, ServerCredentials, type ServiceDefinition } from '@grpc/grpc-js';
import { ReflectionService } from '@grpc/reflection';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import {
  AUTH_PROTO,
  AUTH_SERVICE_NAME,
  correlatedHandlers,
  loadProto,
  POLICY_PROTO,
  POLICY_SERVICE_NAME,
  TENANT_PROTO,
  TENANT_SERVICE_NAME,
} from '@platform/grpc';
import { assertLoopbackBinding, isLoopbackAddress } from '@platform/config';
import { HealthImplementation, service as healthService } from 'grpc-health-check';
import { SIDECAR_CONFIG, type SidecarConfig } from '../config/sidecar-config';
import { Readiness } from '../health/readiness';
import { AuthGrpcService } from './auth.grpc-service';
import { InvalidationStreams } from './invalidation-streams';
import { PolicyGrpcService } from './policy.grpc-service';
import { TenantGrpcService } from './tenant.grpc-service';

export { AUTH_SERVICE_NAME } from '@platform/grpc';

/** Every platform service this server hosts, as health reports them. */
const SERVICE_NAMES = [AUTH_SERVICE_NAME, POLICY_SERVICE_NAME, TENANT_SERVICE_NAME] as const;
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * Owns the grpc-js server: AuthService, PolicyService, TenantService, `grpc.health.v1.Health`
 * (every service NOT_SERVING until the keys and the deny-list are loaded) and server reflection.
 * Binds on bootstrap, drains on shutdown. Refuses a non-loopback address unless
 * SIDECAR_ALLOW_NON_LOOPBACK=true.
 */
@Injectable()
export class GrpcServerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(GrpcServerHost.name);
  private readonly health = new HealthImplementation(
    Object.fromEntries(['', ...SERVICE_NAMES].map((name) => [name, 'NOT_SERVING'])),
  );
  private server: Server | undefined;
  private boundPort = 0;

  constructor(
    @Inject(SIDECAR_CONFIG) private readonly config: SidecarConfig,
    private readonly auth: AuthGrpcService,
    private readonly policy: PolicyGrpcService,
    private readonly tenant: TenantGrpcService,
    private readonly readiness: Readiness,
    private readonly invalidations: InvalidationStreams,
  ) {
    // loadSidecarConfig() already refused; checked again while the module is built (before any
    // provider starts background work) for a config that did not come from the environment.
    assertLoopbackBinding(config);
  }

  /** The port actually bound (useful when the configured port is 0). */
  get port(): number {
    return this.boundPort;
  }

  async onApplicationBootstrap(): Promise<void> {
    const server = new Server({
      'grpc.max_receive_message_length': 1024 * 1024,
      'grpc.keepalive_permit_without_calls': 1,
    });
    const protos = { ...loadProto(AUTH_PROTO), ...loadProto(POLICY_PROTO), ...loadProto(TENANT_PROTO) };
    server.addService(
      protos[AUTH_SERVICE_NAME] as ServiceDefinition,
      correlatedHandlers(this.auth.implementation()),
    );
    server.addService(
      protos[POLICY_SERVICE_NAME] as ServiceDefinition,
      correlatedHandlers(this.policy.implementation()),
    );
    server.addService(
      protos[TENANT_SERVICE_NAME] as ServiceDefinition,
      correlatedHandlers(this.tenant.implementation()),
    );
    this.health.addToServer(server);
    // Reflection describes every file it is given: the auth, policy and tenant packages, plus
    // health.proto (reached through one of its message definitions, which carries the file
    // descriptors).
    new ReflectionService({
      ...protos,
      'grpc.health.v1.HealthCheckRequest': healthService.Check.requestType,
    } as never).addToServer(server);

    this.boundPort = await new Promise<number>((resolve, reject) =>
      server.bindAsync(this.config.grpcAddress, ServerCredentials.createInsecure(), (error, port) =>
        error ? reject(error) : resolve(port),
      ),
    );
    this.server = server;
    this.logger.log(`gRPC listening on ${this.config.grpcAddress} (port ${this.boundPort})`);
    if (this.config.allowNonLoopback && !isLoopbackAddress(this.config.grpcAddress)) {
      this.logger.warn('bound to a non-loopback address (SIDECAR_ALLOW_NON_LOOPBACK=true)');
    }
    this.readiness.onReady(() => {
      if (!this.server) return;
      for (const name of ['', ...SERVICE_NAMES]) this.health.setStatus(name, 'SERVING');
      this.logger.log('serving: keys and deny-list loaded');
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const name of ['', ...SERVICE_NAMES]) this.health.setStatus(name, 'NOT_SERVING');
    // Watch streams never end on their own: end them, or the drain waits for the forced stop.
    this.invalidations.endAll();
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
}
