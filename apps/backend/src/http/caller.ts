import { createParamDecorator, type ExecutionContext, UnsupportedMediaTypeException } from '@nestjs/common';
import { OAuthError } from '@platform/domain';
import { headerValue, mediaType, type PlatformRequest } from '@platform/http';
import type { FastifyRequest } from 'fastify';

/** Who is calling, as far as the hops behind the backend need to know. */
export interface Caller {
  requestId: string;
  /** The caller's Authorization header, forwarded verbatim (client auth, admin Bearer). */
  authorization?: string;
}

export function callerOf(request: FastifyRequest): Caller {
  const authorization = headerValue(request.headers.authorization);
  return authorization === undefined ? { requestId: request.id } : { requestId: request.id, authorization };
}

export const CurrentCaller = createParamDecorator((_: unknown, context: ExecutionContext): Caller =>
  callerOf(context.switchToHttp().getRequest<FastifyRequest>()),
);

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/**
 * The raw form body of an OAuth endpoint request (RFC 6749 section 3.2: form-encoded only).
 * Anything else: invalid_request.
 */
export const FormBody = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const request = context.switchToHttp().getRequest<PlatformRequest>();
  if (mediaType(request) !== FORM) {
    throw new OAuthError('invalid_request', `The request body must be ${FORM}`);
  }
  return request.rawBody ?? '';
});

/** The raw JSON body of an admin request; any other media type: 415 problem+json. */
export const JsonBody = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const request = context.switchToHttp().getRequest<PlatformRequest>();
  if (mediaType(request) !== JSON_TYPE) {
    throw new UnsupportedMediaTypeException(`The request body must be ${JSON_TYPE}`);
  }
  return request.rawBody ?? '';
});
