import { Controller, Post } from '@nestjs/common';
import { SigningKeyRing, type AuditActor } from '@platform/domain';
import { AdminActor } from './admin-api.guard';
import { AdminRoute } from '../platform/route-authority';

@Controller('api/v1/keys')
@AdminRoute()
export class SigningKeysController {
  constructor(private readonly keys: SigningKeyRing) {}

  /** The new key signs from now on; the old one stays published until its tokens expire. */
  @Post('rotate')
  async rotate(@AdminActor() actor: AuditActor) {
    const { kid, createdAt } = await this.keys.rotate(actor);
    return { kid, created_at: createdAt.toISOString() };
  }
}
