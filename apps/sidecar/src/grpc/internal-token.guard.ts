import type { Metadata, ServerUnaryCall } from '@grpc/grpc-js';
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { InternalTokenVerifier } from './internal-token.verifier';

/**
 * Lets a call through only with a valid `x-internal-token`: UNAUTHENTICATED otherwise, and
 * RESOURCE_EXHAUSTED once its address has failed too often; the right token always passes
 * (InternalTokenVerifier).
 */
@Injectable()
export class InternalTokenGuard implements CanActivate {
  constructor(private readonly verifier: InternalTokenVerifier) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const call = context.getArgByIndex<Pick<ServerUnaryCall<unknown, unknown>, 'getPeer'> | undefined>(2);
    // grpc-js names the peer `address:port` (`unknown` on a Unix socket, whose callers share
    // one count); the port is dropped so that every connection of one host counts together.
    const address = (call?.getPeer() ?? 'unknown').replace(/:\d+$/, '');
    await this.verifier.assert(context.switchToRpc().getContext<Metadata>(), address);
    return true;
  }
}
