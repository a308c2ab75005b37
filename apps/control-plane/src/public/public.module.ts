import { Module } from '@nestjs/common';
import { ControlPlaneHealthController } from './control-plane-health.controller';
import { JwksController } from './jwks.controller';

/** The only routes of the control plane that need no credential. */
@Module({ controllers: [JwksController, ControlPlaneHealthController] })
export class PublicModule {}
