import { Module } from '@nestjs/common';
import { InternalGuard } from '../platform/internal.guard';
import { FederatedIssuersController } from './federated-issuers.controller';

/** Workload identity federation's trusted issuers (`/internal/v1/tenants/{tenant}/federated-issuers`). */
@Module({
  controllers: [FederatedIssuersController],
  providers: [InternalGuard],
})
export class FederationModule {}
