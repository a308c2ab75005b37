import { Controller, Header } from '@nestjs/common';
import { KEY_SET_OPERATIONS } from '@platform/contract';
import { SigningKeyRing } from '@platform/domain';
import { Implements } from '../platform/implements';

@Controller()
export class JwksController {
  constructor(private readonly keys: SigningKeyRing) {}

  @Implements(KEY_SET_OPERATIONS.jwks)
  @Header('Cache-Control', 'public, max-age=60')
  jwks() {
    return this.keys.publicJwks();
  }
}
