import { Module } from '@nestjs/common';
import { InternalGuard } from '../platform/internal.guard';
import { InternalOAuthController } from './internal-oauth.controller';
import { RevocationsController } from './revocations.controller';

/** The OAuth endpoints the backend relays to, and the revocation feed sidecars follow: internal routes. */
@Module({ controllers: [InternalOAuthController, RevocationsController], providers: [InternalGuard] })
export class OAuthModule {}
