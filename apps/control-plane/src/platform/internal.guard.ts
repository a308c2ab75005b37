import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import { InternalTokenGuard } from '@platform/http';
import { PLATFORM_CONFIG } from './tokens';

/** Nest-injectable form of the shared internal-token check. */
@Injectable()
export class InternalGuard implements CanActivate {
  private readonly guard: InternalTokenGuard;

  constructor(@Inject(PLATFORM_CONFIG) config: PlatformConfig) {
    this.guard = new InternalTokenGuard(config.internalToken);
  }

  canActivate(context: ExecutionContext): boolean {
    return this.guard.canActivate(context);
  }
}
