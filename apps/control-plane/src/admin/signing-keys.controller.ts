import { Controller, Post, UseGuards } from '@nestjs/common';
import { SigningKeyRing, type AuditActor } from '@platform/domain';
import { AdminActor, AdminApiGuard } from './admin-api.guard';

@Controller('api/v1/keys')
@UseGuards(AdminApiGuard)
export class SigningKeysController {
  constructor(private readonly keys: SigningKeyRing) {}

  /** The new key signs from now on; the old one stays published until its tokens expire. */
  @Post('rotate')
  async rotate(@AdminActor() actor: AuditActor) {
    const { kid, createdAt } = await this.keys.rotate(actor);
    return { kid, created_at: createdAt.toISOString() };
  }
}
