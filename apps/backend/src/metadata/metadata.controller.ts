import { Controller, Get, Header, Inject } from '@nestjs/common';
import { Answers, AuthorizationServerMetadataDto, PublicOperation } from '@platform/contract';
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
  @PublicOperation({
    id: 'getAuthorizationServerMetadata',
    tag: 'Keys and discovery',
    summary: 'Authorization server metadata (RFC 8414)',
    description:
      'Lets standard clients (openid-client, oauth4webapi) discover every endpoint. No credential.',
  })
  @Answers(200, AuthorizationServerMetadataDto, 'The metadata.')
  @Header('cache-control', 'public, max-age=300')
  serverMetadata(): AuthorizationServerMetadata {
    return this.metadata;
  }

  @Get('openid-configuration')
  @PublicOperation({
    id: 'getOpenIdConfiguration',
    tag: 'Keys and discovery',
    summary: 'OpenID Provider configuration (OpenID Connect Discovery 1.0)',
    description:
      'The same document as `/.well-known/oauth-authorization-server`: OpenID Connect relying parties discover the ID token, UserInfo and logout endpoints from it. No credential.',
  })
  @Answers(200, AuthorizationServerMetadataDto, 'The configuration.')
  @Header('cache-control', 'public, max-age=300')
  openIdConfiguration(): AuthorizationServerMetadata {
    return this.metadata;
  }
}
