import type { Metadata } from '@grpc/grpc-js';
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { InternalTokenVerifier } from './internal-token.verifier';

/** Lets a call through only with a valid `x-internal-token`; refuses with UNAUTHENTICATED. */
@Injectable()
export class InternalTokenGuard implements CanActivate {
  constructor(private readonly verifier: InternalTokenVerifier) {}

  canActivate(context: ExecutionContext): boolean {
    this.verifier.assert(context.switchToRpc().getContext<Metadata>());
    return true;
  }
}
