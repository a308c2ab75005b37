import { Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import type { SecretsRewrapDto } from '@platform/contract';
import { type AuditActor, SecretVault, SigningKeyRing } from '@platform/domain';
import { AdminActor, AdminApiGuard } from '../admin/admin-api.guard';

/** After a KEK rotation (docs/secrets.md): moves every data key and signing key under the current KEK. */
@Controller('api/v1/secrets')
@UseGuards(AdminApiGuard)
export class AdminSecretsController {
  constructor(
    private readonly vault: SecretVault,
    private readonly keys: SigningKeyRing,
  ) {}

  @Post('rewrap')
  @HttpCode(200)
  async rewrap(@AdminActor() actor: AuditActor): Promise<SecretsRewrapDto> {
    const signingKeys = await this.keys.rewrap();
    const { rewrapped, kekId } = await this.vault.rewrap(actor, { signing_keys: signingKeys });
    return { rewrapped, signing_keys: signingKeys, kek_id: kekId };
  }
}
