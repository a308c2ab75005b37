import './tracing';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig } from '@platform/config';
import { createHttpApp, createLogger } from '@platform/http';
import { ControlPlaneModule } from './app.module';
import { createValidationPipe } from './validation';

async function main(): Promise<void> {
  const config = loadConfig(process.env, 'control-plane');
  const app = await createHttpApp(ControlPlaneModule, {
    logger: createLogger(config.logFormat, 'control-plane'),
    liveStreams: config.liveStreams,
  });
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  await app.listen(config.controlPlanePort, '0.0.0.0');
  new Logger('ControlPlane').log(`control plane listening on port ${config.controlPlanePort}`);
}

main().catch((error: Error) => {
  // Configuration errors say what to fix; anything else is reported by name only.
  process.stderr.write(
    `control plane failed to start: ${error instanceof ConfigError ? error.message : `${error.name}: ${error.message}`}\n`,
  );
  process.exit(1);
});
