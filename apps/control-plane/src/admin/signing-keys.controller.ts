import { Controller, Post, UseGuards } from '@nestjs/common';
import { SigningKeyRing } from '@platform/domain';
import { AdminApiGuard } from './admin-api.guard';

@Controller('api/v1/keys')
@UseGuards(AdminApiGuard)
export class SigningKeysController {
  constructor(private readonly keys: SigningKeyRing) {}

  /** The new key signs from now on; the old one stays published until its tokens expire. */
  @Post('rotate')
  async rotate() {
    const { kid, createdAt } = await this.keys.rotate();
    return { kid, created_at: createdAt.toISOString() };
  }
}
