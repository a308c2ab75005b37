import { type INestApplication, Module } from '@nestjs/common';
import { type DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ApiDocsController } from './api-docs.controller';
import { PublishedOpenApi } from './published-openapi';
import { SwaggerUiAssets } from './swagger-ui';

/** `/openapi.json` and its Swagger UI at `/docs`, for an application that publishes its document. */
@Module({
  controllers: [ApiDocsController],
  providers: [PublishedOpenApi, { provide: SwaggerUiAssets, useFactory: () => new SwaggerUiAssets() }],
})
export class ApiDocsModule {}

/**
 * The OpenAPI 3.1 document of `app`, generated from its controllers' decorators and DTOs, then
 * put in 3.1 terms: `nullable` becomes a `null` type, and an operation that declares no security
 * requirement is public (`security: []`).
 */
export function generateOpenApi(app: INestApplication, builder: DocumentBuilder): OpenAPIObject {
  const document = SwaggerModule.createDocument(app, builder.setOpenAPIVersion('3.1.0').build(), {
    operationIdFactory: (_controller, method) => method,
    // Every operation names its tag (libs/contract's operation decorators); a second one named
    // after the controller class would list it twice, and Swagger UI stops rendering at such twins.
    autoTagControllers: false,
  });
  visitSchemas(document.components);
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      operation.security ??= [];
      visitSchemas(operation);
    }
  }
  return document;
}

/** Serves `document` at `/openapi.json` (ApiDocsModule must be imported by the application). */
export function publishOpenApi(app: INestApplication, document: OpenAPIObject): OpenAPIObject {
  app.get(PublishedOpenApi).publish(document);
  return document;
}

function visitSchemas(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(visitSchemas);
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema.nullable === true) {
    delete schema.nullable;
    if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  }
  Object.values(schema).forEach(visitSchemas);
}
