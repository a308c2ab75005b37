import { Controller, Get, Header, Inject } from '@nestjs/common';
import { SigningKeyRing } from '@platform/domain';
import { PLATFORM_VERSION } from '@platform/config';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '../platform/tokens';

@Controller('api/v1/jwks')
export class JwksController {
  constructor(private readonly keys: SigningKeyRing) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=60')
  jwks() {
    return this.keys.publicJwks();
  }
}

@Controller('health')
export class HealthController {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  @Get()
  async health() {
    await this.dataSource.query('SELECT 1');
    return { status: 'ok', database: 'connected', version: PLATFORM_VERSION };
  }
}
