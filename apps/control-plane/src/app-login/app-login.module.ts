import { Module } from '@nestjs/common';
import { InternalGuard } from '../platform/internal.guard';
import { InternalAppLoginController } from './internal-app-login.controller';

/** Internal routes of the app login (`/internal/v1/app-login/*`), behind the internal token. */
@Module({ controllers: [InternalAppLoginController], providers: [InternalGuard] })
export class AppLoginModule {}
