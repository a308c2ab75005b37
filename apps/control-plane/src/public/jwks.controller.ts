import { Controller, Get, Header } from '@nestjs/common';
import { SigningKeyRing } from '@platform/domain';
import { PublicRoute } from '../platform/route-authority';

@Controller('api/v1/jwks')
@PublicRoute()
export class JwksController {
  constructor(private readonly keys: SigningKeyRing) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=60')
  jwks() {
    return this.keys.publicJwks();
  }
}
