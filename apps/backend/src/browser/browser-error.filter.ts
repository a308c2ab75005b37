import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import { requestPath, statusTitle, toErrorResponse } from '@platform/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorPage } from './pages';
import { sendPage } from './respond';

/**
 * The platform's error mapping (status and safe detail from `toErrorResponse`), rendered as an
 * HTML page for the routes a person sees in a browser. Server-side failures are logged the
 * same way and shown without detail, except a 503, which says what is unavailable.
 */
@Catch()
export class BrowserErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('BrowserErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { status, body, logLine } = toErrorResponse(exception, request);
    if (logLine !== undefined) {
      this.logger.error(`[${request.id}] ${request.method} ${requestPath(request)}: ${logLine}`);
    }
    if (reply.sent) return;
    const detail = (body as { detail?: unknown }).detail;
    const message =
      typeof detail === 'string' && detail !== ''
        ? detail
        : 'Something went wrong on our side. Please try again later.';
    void sendPage(reply, status, errorPage(titleFor(status), message));
  }
}

function titleFor(status: number): string {
  switch (status) {
    case 400:
      return 'This request cannot be processed';
    case 403:
      return 'Not allowed';
    case 503:
      return 'Temporarily unavailable';
    default:
      return statusTitle(status);
  }
}
