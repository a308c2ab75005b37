import { Controller, HttpCode, Post } from '@nestjs/common';
import type { SecretsRewrapDto } from '@platform/contract';
import { type AuditActor, SecretVault, SigningKeyRing, WebhookRegistry } from '@platform/domain';
import { AdminActor } from '../admin/admin-api.guard';
import { AdminRoute } from '../platform/route-authority';

/**
 * After a KEK rotation (docs/secrets.md): moves every data key, signing key and webhook secret
 * under the current KEK.
 */
@Controller('api/v1/secrets')
@AdminRoute()
export class AdminSecretsController {
  constructor(
    private readonly vault: SecretVault,
    private readonly keys: SigningKeyRing,
    private readonly webhooks: WebhookRegistry,
  ) {}

  @Post('rewrap')
  @HttpCode(200)
  async rewrap(@AdminActor() actor: AuditActor): Promise<SecretsRewrapDto> {
    const moved = {
      signing_keys: await this.keys.rewrap(),
      webhook_secrets: await this.webhooks.rewrapSecrets(),
    };
    const { rewrapped, kekId } = await this.vault.rewrap(actor, moved);
    return { rewrapped, ...moved, kek_id: kekId };
  }
}
