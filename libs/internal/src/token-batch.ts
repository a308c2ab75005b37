import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsOptional,
  IsString,
  Matches,
  ValidateNested,
} from 'class-validator';
import { SANE_CORRELATION_ID } from '@platform/telemetry';

/**
 * The backend's token requests of one turn of its event loop, sent to the control plane in one
 * call (`INTERNAL_OAUTH_OPERATIONS.tokenBatch`, docs/internal-api.md): each answered as if it
 * had come alone, with its own correlation id and trace.
 */
/** Most token requests in one call. */
export const TOKEN_BATCH_MAX_REQUESTS = 64;
/**
 * A call stops taking requests once its JSON reaches this size. One request alone always goes
 * (a 64 KiB form escaped as JSON stays under the route's limit, `TOKEN_BATCH_BODY_LIMIT`).
 */
export const TOKEN_BATCH_TARGET_BYTES = 512 * 1024;
/** The batch route's body limit: the target plus the largest single request. */
export const TOKEN_BATCH_BODY_LIMIT = TOKEN_BATCH_TARGET_BYTES + 512 * 1024;

/** One client's token request, as its backend received it. */
export class TokenBatchRequestDto {
  /** The form body, verbatim. */
  @IsString()
  form: string;

  /** The client's Authorization header, verbatim, when it sent one. */
  @IsOptional()
  @IsString()
  authorization?: string;

  /** The client's `DPoP` proof header (RFC 9449), verbatim, when it sent one. */
  @IsOptional()
  @IsString()
  dpop?: string;

  /** The path the client sent the request to, without query: the proof's `htu` is the issuer with it. */
  @IsOptional()
  @Matches(/^\/[^?#]*$/)
  dpop_path?: string;

  /** The correlation id of the client's request. */
  @Matches(SANE_CORRELATION_ID)
  request_id: string;

  /** W3C trace context of the backend's span for this request (when tracing is on). */
  @IsOptional()
  @IsString()
  traceparent?: string;

  @IsOptional()
  @IsString()
  tracestate?: string;
}

export class TokenBatchDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TOKEN_BATCH_MAX_REQUESTS)
  @ValidateNested({ each: true })
  @Type(() => TokenBatchRequestDto)
  requests: TokenBatchRequestDto[];
}
