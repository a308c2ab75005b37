import { Controller, Get, Header, Inject } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import { PLATFORM_CONFIG } from '../config';
import {
  type AuthorizationServerMetadata,
  authorizationServerMetadata,
} from './authorization-server-metadata';

@Controller('.well-known')
export class MetadataController {
  private readonly metadata: AuthorizationServerMetadata;

  constructor(@Inject(PLATFORM_CONFIG) config: PlatformConfig) {
    this.metadata = authorizationServerMetadata(config.issuer);
  }

  @Get('oauth-authorization-server')
  @Header('cache-control', 'public, max-age=300')
  serverMetadata(): AuthorizationServerMetadata {
    return this.metadata;
  }
}
