import { Module } from '@nestjs/common';
import { OAuthController, RevocationsController } from './internal.controllers';
import { InternalGuard } from './internal.guard';

/** Routes only our own processes call (`/internal/v1/*`), behind the internal token. */
@Module({ controllers: [OAuthController, RevocationsController], providers: [InternalGuard] })
export class InternalModule {}
