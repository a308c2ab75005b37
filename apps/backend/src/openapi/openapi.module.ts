import { type DynamicModule, Module } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import { openApiDocument } from './document';
import { OPENAPI_JSON, OpenApiController } from './openapi.controller';
import { SwaggerUiAssets } from './swagger-ui';

/** The backend's OpenAPI document (for the configured issuer) and its Swagger UI. */
@Module({})
export class OpenApiModule {
  static forRoot(config: Pick<PlatformConfig, 'issuer'>): DynamicModule {
    return {
      module: OpenApiModule,
      controllers: [OpenApiController],
      providers: [
        {
          provide: OPENAPI_JSON,
          useFactory: () => JSON.stringify(openApiDocument({ issuer: config.issuer })),
        },
        { provide: SwaggerUiAssets, useFactory: () => new SwaggerUiAssets() },
      ],
    };
  }
}
