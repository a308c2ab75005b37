import { Controller } from '@nestjs/common';
import { KEY_OPERATIONS } from '@platform/contract';
import { SigningKeyRing, type AuditActor } from '@platform/domain';
import { AdminActor } from '../platform/admin-api.guard';
import { Implements } from '../platform/implements';

@Controller()
export class SigningKeysController {
  constructor(private readonly keys: SigningKeyRing) {}

  /** The new key signs from now on; the old one stays published until its tokens expire. */
  @Implements(KEY_OPERATIONS.rotate)
  async rotate(@AdminActor() actor: AuditActor) {
    const { kid, createdAt } = await this.keys.rotate(actor);
    return { kid, created_at: createdAt.toISOString() };
  }
}
