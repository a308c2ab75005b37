import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import { closingOf } from '@platform/http';
import { serveMetrics } from '@platform/telemetry';
import { PLATFORM_CONFIG } from '../config';

/** `GET /metrics` on the backend's admin port (127.0.0.1 unless told), never on the public one. */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private close: (() => Promise<void>) | undefined;

  constructor(@Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.backendMetricsPort === 0) return;
    const host = this.config.backendMetricsHost;
    try {
      const { port, server } = await serveMetrics(this.config.backendMetricsPort, host);
      // A scraper's kept-alive connection, or one it opened and left silent, holds no exit.
      this.close = closingOf(server);
      this.logger.log(`metrics on http://${host}:${port}/metrics`);
    } catch (error) {
      // The platform serves without its metrics rather than not at all (a taken port, say).
      this.logger.error(
        `metrics not served on ${host}:${this.config.backendMetricsPort}: ${(error as Error).message}`,
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close?.();
  }
}
