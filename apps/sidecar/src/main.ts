import './tracing';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { CorrelatedLogger } from '@platform/telemetry';
import { loadSidecarConfig } from './config/sidecar-config';
import { startSidecar } from './start-sidecar';

async function bootstrap(): Promise<void> {
  const config = loadSidecarConfig();
  const logger = new CorrelatedLogger(config.logFormat, 'sidecar');
  logger.setContext('Sidecar');
  const app = await startSidecar({ config }, { logger, abortOnError: false });
  app.enableShutdownHooks();
}

bootstrap().catch((error: unknown) => {
  new Logger('Sidecar').error(`start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
