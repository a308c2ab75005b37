import type { ServerUnaryCall } from '@grpc/grpc-js';
import { Catch, Logger, type ArgumentsHost, type RpcExceptionFilter } from '@nestjs/common';
import { throwError, type Observable } from 'rxjs';
import { AuthorizationError } from '../authorization/authorization.error';
import { SidecarError } from '../errors';
import { toGrpcStatus, type GrpcFailure } from './status-mapper';

/**
 * Every failure of a gRPC handler or guard answers through the status mapper. Unexpected errors
 * are logged by name and message (never a token); control-plane and quota Redis trouble as a warning; token and
 * policy refusals are expected answers (policy denials are logged where they are decided).
 */
@Catch()
export class GrpcStatusFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('GrpcServer');

  catch(error: unknown, host: ArgumentsHost): Observable<GrpcFailure> {
    const method = host.getArgByIndex<ServerUnaryCall<unknown, unknown> | undefined>(2)?.getPath() ?? 'call';
    if (error instanceof SidecarError) {
      if (
        error.code === 'control_plane_unavailable' ||
        error.code === 'control_plane_rejected' ||
        error.code === 'counter_unavailable'
      ) {
        this.logger.warn(`${method}: ${error.message}`);
      }
    } else if (!(error instanceof AuthorizationError)) {
      this.logger.error(
        `${method} failed: ${(error as Error)?.name ?? 'error'}: ${(error as Error)?.message ?? ''}`,
      );
    }
    return throwError(() => toGrpcStatus(error));
  }
}
