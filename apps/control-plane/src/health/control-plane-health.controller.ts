import { Controller, Inject, Res } from '@nestjs/common';
import { PLATFORM_VERSION } from '@platform/config';
import {
  CONTROL_PLANE_PROBE_OPERATIONS,
  type ControlPlaneHealthDto,
  type ProbeDto,
} from '@platform/contract';
import { Drain } from '@platform/http';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '../platform/tokens';
import { Implements } from '../platform/implements';

/** `/health` (with the database), and the orchestrator's `/livez` and `/readyz`. */
@Controller()
export class ControlPlaneHealthController {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly drain: Drain,
  ) {}

  @Implements(CONTROL_PLANE_PROBE_OPERATIONS.health)
  async health(): Promise<ControlPlaneHealthDto> {
    await this.dataSource.query('SELECT 1');
    return { status: 'ok', database: 'connected', version: PLATFORM_VERSION };
  }

  @Implements(CONTROL_PLANE_PROBE_OPERATIONS.live)
  live(): ProbeDto {
    return { status: 'ok' };
  }

  @Implements(CONTROL_PLANE_PROBE_OPERATIONS.ready)
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ProbeDto> {
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
