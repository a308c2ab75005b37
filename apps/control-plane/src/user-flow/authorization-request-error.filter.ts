import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { AuthorizationRequestError } from '@platform/domain';
import type { FastifyReply } from 'fastify';

/**
 * The one place an authorization request's refusal becomes HTTP: always 400, with the flag
 * that tells the backend whether it may send the browser to the redirect URI.
 */
@Catch(AuthorizationRequestError)
export class AuthorizationRequestErrorFilter implements ExceptionFilter<AuthorizationRequestError> {
  catch(error: AuthorizationRequestError, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    void reply
      .status(400)
      .headers({ 'content-type': 'application/json', 'cache-control': 'no-store' })
      .send(
        JSON.stringify({
          error: error.code,
          error_description: error.description,
          redirectable: error.redirectable,
        }),
      );
  }
}
