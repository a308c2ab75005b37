import { Controller, Get, Inject } from '@nestjs/common';
import { PLATFORM_VERSION } from '@platform/config';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '../platform/tokens';

@Controller('health')
export class ControlPlaneHealthController {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  @Get()
  async health() {
    await this.dataSource.query('SELECT 1');
    return { status: 'ok', database: 'connected', version: PLATFORM_VERSION };
  }
}
