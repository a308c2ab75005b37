import { Module } from '@nestjs/common';
import { HealthController, JwksController } from './public.controllers';

/** The only routes of the control plane that need no credential. */
@Module({ controllers: [JwksController, HealthController] })
export class PublicModule {}
