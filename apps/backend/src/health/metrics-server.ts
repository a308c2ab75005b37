import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import { serveMetrics } from '@platform/telemetry';
import { PLATFORM_CONFIG } from '../config';

/** `GET /metrics` on the backend's admin port (127.0.0.1 unless told), never on the public one. */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: { port: number; close(): Promise<void> } | undefined;

  constructor(@Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.backendMetricsPort === 0) return;
    const host = this.config.backendMetricsHost;
    this.server = await serveMetrics(this.config.backendMetricsPort, host);
    this.logger.log(`metrics on http://${host}:${this.server.port}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.server?.close();
  }
}
