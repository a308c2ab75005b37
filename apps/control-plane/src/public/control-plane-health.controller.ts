import { Controller, Get, Inject, Res } from '@nestjs/common';
import { PLATFORM_VERSION } from '@platform/config';
import { Drain } from '@platform/http';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '../platform/tokens';
import { PublicRoute } from '../platform/route-authority';

/** `/health` (with the database), and the orchestrator's `/livez` and `/readyz`. */
@Controller()
@PublicRoute()
export class ControlPlaneHealthController {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly drain: Drain,
  ) {}

  @Get('health')
  async health() {
    await this.dataSource.query('SELECT 1');
    return { status: 'ok', database: 'connected', version: PLATFORM_VERSION };
  }

  @Get('livez')
  live() {
    return { status: 'ok' };
  }

  /** 503 `draining` from SIGTERM on, `unavailable` while the database does not answer. */
  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const status = this.drain.draining ? 'draining' : (await this.databaseAnswers()) ? 'ok' : 'unavailable';
    void reply.status(status === 'ok' ? 200 : 503).header('cache-control', 'no-store');
    return { status };
  }

  private async databaseAnswers(): Promise<boolean> {
    try {
      await this.dataSource.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }
}
