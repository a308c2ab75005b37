import { Module } from '@nestjs/common';
import { ControlPlaneHealthController } from './control-plane-health.controller';
import { JwksController } from './jwks.controller';
import { MetricsController } from './metrics.controller';

/** The only routes of the control plane that need no credential (it is on the internal network). */
@Module({ controllers: [JwksController, ControlPlaneHealthController, MetricsController] })
export class PublicModule {}
