import { Module, type INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { openApiDocument } from './document';
import { OpenApiController } from './openapi.controller';
import { PublishedOpenApi } from './published-openapi';
import { SwaggerUiAssets } from './swagger-ui';

/** The backend's OpenAPI document and its Swagger UI. */
@Module({
  controllers: [OpenApiController],
  providers: [PublishedOpenApi, { provide: SwaggerUiAssets, useFactory: () => new SwaggerUiAssets() }],
})
export class OpenApiModule {}

/** Generates the document from the application's routes and serves it at `/openapi.json`. */
export function publishOpenApi(app: INestApplication, issuer: string): OpenAPIObject {
  const document = openApiDocument(app, issuer);
  app.get(PublishedOpenApi).publish(document);
  return document;
}
