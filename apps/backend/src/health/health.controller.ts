import { Controller, Get, Res } from '@nestjs/common';
import { Answers, HealthDto, PublicOperation } from '@platform/contract';
import type { FastifyReply } from 'fastify';
import { type HealthReport, HealthService } from './health.service';

@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @PublicOperation({
    id: 'getHealth',
    tag: 'Platform',
    summary: 'Health',
    description:
      'The specification leaves the credential "not shown"; decided: none, so load balancers and orchestrators can probe it, and the answer holds nothing secret. **200** when the sidecar that validates every token is serving, **503** `{status: "degraded", sidecar: "unavailable"}` otherwise, so traffic stops reaching a pod that would refuse it.',
  })
  @Answers(200, HealthDto, 'Healthy.', {
    headers: { 'Cache-Control': { schema: { type: 'string', enum: ['no-store'] } } },
  })
  @Answers(503, HealthDto, 'The sidecar is not serving.')
  async check(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport> {
    const report = await this.health.check();
    void reply.status(report.status === 'ok' ? 200 : 503).header('cache-control', 'no-store');
    return report;
  }
}
