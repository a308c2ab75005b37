import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type HealthReport, HealthService } from './health.service';

@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** 200 when the sidecar is connected, 503 otherwise (no auth; no secrets in the answer). */
  @Get()
  async check(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport> {
    const report = await this.health.check();
    void reply.status(report.status === 'ok' ? 200 : 503).header('cache-control', 'no-store');
    return report;
  }
}
