import type { sendUnaryData } from '@grpc/grpc-js';
import type { Logger } from '@nestjs/common';
import { AuthorizationError } from '../authorization/authorization.error';
import { SidecarError } from '../errors';
import { toGrpcStatus } from './status-mapper';

/**
 * Answers a failed call through the status mapper. Unexpected errors are logged by name and
 * message (never a token); control-plane trouble as a warning; token and policy refusals are
 * expected answers (policy denials are logged where they are decided).
 */
export function failCall(
  logger: Logger,
  method: string,
  callback: sendUnaryData<never>,
  error: unknown,
): void {
  const failure = toGrpcStatus(error);
  if (error instanceof SidecarError) {
    if (error.code === 'control_plane_unavailable' || error.code === 'control_plane_rejected') {
      logger.warn(`${method}: ${error.message}`);
    }
  } else if (!(error instanceof AuthorizationError)) {
    logger.error(
      `${method} failed: ${(error as Error)?.name ?? 'error'}: ${(error as Error)?.message ?? ''}`,
    );
  }
  callback(failure);
}
