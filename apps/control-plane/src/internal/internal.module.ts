import { Module } from '@nestjs/common';
import { InternalOAuthController } from './internal-oauth.controller';
import { InternalGuard } from './internal.guard';
import { RevocationsController } from './revocations.controller';

/** Routes only our own processes call (`/internal/v1/*`), behind the internal token. */
@Module({ controllers: [InternalOAuthController, RevocationsController], providers: [InternalGuard] })
export class InternalModule {}
