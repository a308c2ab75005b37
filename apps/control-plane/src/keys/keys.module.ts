import { Module } from '@nestjs/common';
import { AdminApiGuard } from '../platform/admin-api.guard';
import { JwksController } from './jwks.controller';
import { SigningKeysController } from './signing-keys.controller';

/** Signing keys: their rotation (admin) and the public key set that verifies them. */
@Module({ controllers: [JwksController, SigningKeysController], providers: [AdminApiGuard] })
export class KeysModule {}
