import './tracing';
import 'reflect-metadata';
import { loadConfig } from '@platform/config';
import { checkAnswersAgainst, createHttpApp, createLogger, publishOpenApi } from '@platform/http';
import { BackendModule } from './backend.module';
import { openApiDocument } from './openapi/document';
import { registerCookieParser } from './browser/cookies';

async function bootstrap(): Promise<void> {
  const config = loadConfig(process.env, 'backend');
  const logger = createLogger(config.logFormat, 'backend');
  const app = await createHttpApp(BackendModule.forRoot(config), { logger, trustProxy: config.trustProxy });
  const document = openApiDocument(app, config.issuer);
  publishOpenApi(app, document);
  if (config.testAnswerCheckFile !== undefined)
    checkAnswersAgainst(app, document, config.testAnswerCheckFile);
  await registerCookieParser(app);
  app.enableShutdownHooks();
  await app.listen({ port: config.backendPort, host: '0.0.0.0' });
  logger.log(
    `backend listening on http://0.0.0.0:${config.backendPort} (issuer ${config.issuer})`,
    'Bootstrap',
  );
  if (config.oidc.issuer === undefined) {
    logger.warn(
      'OIDC_ISSUER is not set: browser sign-in (and so /oauth/authorize) is unavailable',
      'Bootstrap',
    );
  }
}

bootstrap().catch((error: unknown) => {
  const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
  console.error(`backend failed to start: ${name}: ${message}`);
  process.exit(1);
});
