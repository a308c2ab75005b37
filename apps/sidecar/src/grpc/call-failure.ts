import type { Metadata, sendUnaryData } from '@grpc/grpc-js';
import type { Logger } from '@nestjs/common';
import { REQUEST_ID_METADATA } from '@platform/grpc';
import { AuthorizationError } from '../authorization/authorization.error';
import { SidecarError } from '../errors';
import { toGrpcStatus } from './status-mapper';

/** The caller's correlation id, if it sent a sane one. */
export function requestIdOf(metadata: Metadata): string | undefined {
  const [value] = metadata.get(REQUEST_ID_METADATA);
  return typeof value === 'string' && /^[\w.:-]{1,128}$/.test(value) ? value : undefined;
}

export const logPrefix = (requestId: string | undefined): string => (requestId ? `[${requestId}] ` : '');

/**
 * Answers a failed call through the status mapper. Unexpected errors are logged by name and
 * message (never a token); control-plane trouble as a warning; token and policy refusals are
 * expected answers (policy denials are logged where they are decided).
 */
export function failCall(
  logger: Logger,
  method: string,
  metadata: Metadata,
  callback: sendUnaryData<never>,
  error: unknown,
): void {
  const failure = toGrpcStatus(error);
  if (error instanceof SidecarError) {
    if (error.code === 'control_plane_unavailable' || error.code === 'control_plane_rejected') {
      logger.warn(`${logPrefix(requestIdOf(metadata))}${method}: ${error.message}`);
    }
  } else if (!(error instanceof AuthorizationError)) {
    logger.error(
      `${logPrefix(requestIdOf(metadata))}${method} failed: ${(error as Error)?.name ?? 'error'}: ${(error as Error)?.message ?? ''}`,
    );
  }
  callback(failure);
}
