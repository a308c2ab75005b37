import { Controller, Get, Res } from '@nestjs/common';
import { scrape } from '@platform/telemetry';
import type { FastifyReply } from 'fastify';
import { PublicRoute } from '../platform/route-authority';

/** `GET /metrics`: the Prometheus text format, for the scraper of the internal network. */
@Controller('metrics')
@PublicRoute()
export class MetricsController {
  @Get()
  async metrics(@Res() reply: FastifyReply): Promise<void> {
    const { contentType, body } = await scrape();
    await reply.header('content-type', contentType).send(body);
  }
}
