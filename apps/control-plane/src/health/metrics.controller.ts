import { Controller, Res } from '@nestjs/common';
import { CONTROL_PLANE_PROBE_OPERATIONS } from '@platform/contract';
import { scrape } from '@platform/telemetry';
import type { FastifyReply } from 'fastify';
import { Implements } from '../platform/implements';

/** `GET /metrics`: the Prometheus text format, for the scraper of the internal network. */
@Controller()
export class MetricsController {
  @Implements(CONTROL_PLANE_PROBE_OPERATIONS.metrics)
  async metrics(@Res() reply: FastifyReply): Promise<void> {
    const { contentType, body } = await scrape();
    await reply.header('content-type', contentType).send(body);
  }
}
