import { Injectable } from '@nestjs/common';
import {
  type AppLoginRefreshDto,
  INTERNAL_APP_LOGIN_OPERATIONS,
  internalPathOf,
  type LoginCodeExchangeDto,
  type LoginCodeRequestDto,
  type ReturnToDto,
} from '@platform/contract';
import { DomainError } from '@platform/domain';
import { ControlPlaneClient, type UpstreamResponse } from './control-plane.client';
import { isRecord, isString, postInternalJson, unexpectedAnswer } from './internal-json';

/** The app a login's `return_to` belongs to. */
export interface AppLoginTarget {
  clientId: string;
  clientName: string;
  returnTo: string;
}

/** What the app login keeps through the identity provider's round trip: the app and its PKCE and state. */
export interface AppLoginTransaction {
  clientId: string;
  codeChallenge: string;
  state?: string;
}

const NOT_A_CALLBACK =
  'return_to must be exactly the registered redirect URI of one application. This sign-in link is not valid.';

/**
 * The app login of the user-forwarding model, owned by the control plane
 * (`/internal/v1/app-login/*`, docs/internal-api.md).
 */
@Injectable()
export class AppLoginClient {
  constructor(private readonly controlPlane: ControlPlaneClient) {}

  /** The app whose registered callback `returnTo` is; DomainError validation_failed (400 page) if none. */
  async target(returnTo: string): Promise<AppLoginTarget> {
    const path = `/${internalPathOf(INTERNAL_APP_LOGIN_OPERATIONS.check)}`;
    const { status, body } = await postInternalJson(this.controlPlane, path, {
      return_to: returnTo,
    } satisfies ReturnToDto);
    if (status === 400) throw new DomainError('validation_failed', NOT_A_CALLBACK);
    const answer = status === 200 && isRecord(body) ? body : undefined;
    if (!answer || !isString(answer.client_id) || !isString(answer.client_name)) {
      return unexpectedAnswer(path, status);
    }
    return { clientId: answer.client_id, clientName: answer.client_name, returnTo };
  }

  /** Where to send the browser after the login: the app's callback with a one-time code (and its state). */
  async issueCode(session: string, target: AppLoginTransaction & { returnTo: string }): Promise<string> {
    const path = `/${internalPathOf(INTERNAL_APP_LOGIN_OPERATIONS.issue)}`;
    const { status, body } = await postInternalJson(this.controlPlane, path, {
      session,
      client_id: target.clientId,
      return_to: target.returnTo,
      code_challenge: target.codeChallenge,
      state: target.state,
    } satisfies LoginCodeRequestDto);
    if (status === 400) throw new DomainError('validation_failed', NOT_A_CALLBACK);
    const redirectTo = status === 201 && isRecord(body) ? body.redirect_to : undefined;
    return isString(redirectTo) ? redirectTo : unexpectedAnswer(path, status);
  }

  /** The login code for the user's tokens: the control plane's RFC 6749 answer, as it is. */
  exchange(body: LoginCodeExchangeDto, authorization: string | undefined): Promise<UpstreamResponse> {
    return this.post(`/${internalPathOf(INTERNAL_APP_LOGIN_OPERATIONS.exchange)}`, body, authorization);
  }

  refresh(body: AppLoginRefreshDto, authorization: string | undefined): Promise<UpstreamResponse> {
    return this.post(`/${internalPathOf(INTERNAL_APP_LOGIN_OPERATIONS.refresh)}`, body, authorization);
  }

  /** The app's Basic credentials, if it sent them, go along as its Authorization header. */
  private post(path: string, body: object, authorization: string | undefined): Promise<UpstreamResponse> {
    return this.controlPlane.request({
      method: 'POST',
      path,
      contentType: 'application/json',
      body: JSON.stringify(body),
      ...(authorization !== undefined && { authorization }),
    });
  }
}
