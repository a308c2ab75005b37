import { Controller, Get, Res } from '@nestjs/common';
import { Answers, HealthDto, ProbeDto, PublicOperation } from '@platform/contract';
import { Drain } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { type HealthReport, HealthService } from './health.service';

const NO_STORE = { headers: { 'Cache-Control': { schema: { type: 'string', enum: ['no-store'] } } } };

/** Health for people and load balancers, and the two probes of an orchestrator. */
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthService,
    private readonly drain: Drain,
  ) {}

  @Get('livez')
  @PublicOperation({
    id: 'getLiveness',
    tag: 'Platform',
    summary: 'Liveness probe',
    description: '**200** while the process runs: restart it only when this fails. No credential.',
  })
  @Answers(200, ProbeDto, 'Alive.', NO_STORE)
  live(@Res({ passthrough: true }) reply: FastifyReply): ProbeDto {
    void reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  }

  @Get('readyz')
  @PublicOperation({
    id: 'getReadiness',
    tag: 'Platform',
    summary: 'Readiness probe',
    description:
      '**200** when this backend can serve: its sidecar is serving and it is not shutting down. **503** `unavailable` without the sidecar, **503** `draining` from SIGTERM on, while requests in flight and those still arriving are served for `SHUTDOWN_DRAIN_MS`. No credential.',
  })
  @Answers(200, ProbeDto, 'Ready.', NO_STORE)
  @Answers(503, ProbeDto, 'Not ready: `unavailable` or `draining`.')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ProbeDto> {
    const status = this.drain.draining
      ? 'draining'
      : (await this.health.check()).status === 'ok'
        ? 'ok'
        : 'unavailable';
    void reply.status(status === 'ok' ? 200 : 503).header('cache-control', 'no-store');
    return { status };
  }

  @Get('health')
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
