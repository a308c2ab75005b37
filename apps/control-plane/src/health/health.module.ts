import { Module } from '@nestjs/common';
import { ControlPlaneHealthController } from './control-plane-health.controller';
import { MetricsController } from './metrics.controller';

/** Health, the orchestrator's probes and the metrics: no credential (the internal network only). */
@Module({ controllers: [ControlPlaneHealthController, MetricsController] })
export class HealthModule {}
