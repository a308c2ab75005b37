import { Controller } from '@nestjs/common';
import { SECRETS_ADMIN_OPERATIONS } from '@platform/contract';
import { type AuditActor, SecretVault, SigningKeyRing, WebhookRegistry } from '@platform/domain';
import { AdminActor } from '../platform/admin-api.guard';
import { Implements } from '../platform/implements';

/**
 * After a KEK rotation (docs/secrets.md): moves every data key, signing key and webhook secret
 * under the current KEK.
 */
@Controller()
export class AdminSecretsController {
  constructor(
    private readonly vault: SecretVault,
    private readonly keys: SigningKeyRing,
    private readonly webhooks: WebhookRegistry,
  ) {}

  @Implements(SECRETS_ADMIN_OPERATIONS.rewrap)
  async rewrap(@AdminActor() actor: AuditActor) {
    const moved = {
      signing_keys: await this.keys.rewrap(),
      webhook_secrets: await this.webhooks.rewrapSecrets(),
    };
    const { rewrapped, kekId } = await this.vault.rewrap(actor, moved);
    return { rewrapped, ...moved, kek_id: kekId };
  }
}
