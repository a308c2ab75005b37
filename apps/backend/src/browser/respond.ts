import { UnsupportedMediaTypeException } from '@nestjs/common';
import { mediaType, type PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { browserHeaders, HTML_CONTENT_TYPE } from './html';

/** Sends a server-rendered page with the browser security headers. */
export async function sendPage(
  reply: FastifyReply,
  status: number,
  document: string,
  formActions: readonly string[] = [],
): Promise<void> {
  void reply.status(status).headers({ ...browserHeaders(formActions), 'content-type': HTML_CONTENT_TYPE });
  await reply.send(document);
}

/** A redirect with the same headers (no caching, no Referer carrying the request onward). */
export async function sendRedirect(reply: FastifyReply, status: 302 | 303, location: string): Promise<void> {
  void reply.status(status).headers({ ...browserHeaders(), location });
  await reply.send();
}

const FORM = 'application/x-www-form-urlencoded';

/** The fields of an HTML form post; any other body: 415. */
export function formFields(request: PlatformRequest): URLSearchParams {
  if (mediaType(request) !== FORM)
    throw new UnsupportedMediaTypeException(`The form must be posted as ${FORM}`);
  return new URLSearchParams(request.rawBody ?? '');
}
