import { answerMetrics } from '@platform/telemetry';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { SIDECAR_CONFIG, type SidecarConfig } from '../config/sidecar-config';
import { Readiness } from './readiness';

/**
 * `GET /health` on SIDECAR_HEALTH_PORT: 200 `{status:"ok"}` once ready, 503 `{status:"starting"}`
 * before (`/readyz` answers the same, for orchestrators); `GET /livez`: 200 while the process
 * runs; `GET /metrics`: the Prometheus text format.
 */
@Injectable()
export class HealthHttpServer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(HealthHttpServer.name);
  private server: Server | undefined;

  constructor(
    @Inject(SIDECAR_CONFIG) private readonly config: SidecarConfig,
    private readonly readiness: Readiness,
  ) {}

  get port(): number {
    return (this.server?.address() as AddressInfo | null)?.port ?? 0;
  }

  async onApplicationBootstrap(): Promise<void> {
    const server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      if (path === '/metrics' && request.method === 'GET') {
        answerMetrics(response);
        return;
      }
      if (path === '/livez' && request.method === 'GET') {
        response
          .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
          .end('{"status":"ok"}');
        return;
      }
      if (
        (path !== '/health' && path !== '/readyz') ||
        (request.method !== 'GET' && request.method !== 'HEAD')
      ) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"status":"not found"}');
        return;
      }
      const ready = this.readiness.ready;
      response
        .writeHead(ready ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(request.method === 'HEAD' ? undefined : JSON.stringify({ status: ready ? 'ok' : 'starting' }));
    });
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.healthPort, this.config.healthHost, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.logger.log(`health on http://${this.config.healthHost}:${this.port}/health`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
