import { Injectable } from '@nestjs/common';
import {
  type AuthorizationDecisionDto,
  type AuthorizationRequestDto,
  INTERNAL_AUTHORIZE_OPERATIONS,
  internalPathOf,
} from '@platform/contract';
import { ControlPlaneClient } from './control-plane.client';
import { isRecord, isString, postInternalJson, unexpectedAnswer } from './internal-json';

/** The parameters of an authorization request (RFC 6749 4.1.1, RFC 7636 4.3) the backend passes on. */
export const AUTHORIZE_PARAMETERS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'code_challenge',
  'code_challenge_method',
  'state',
  'nonce',
  'prompt',
  'max_age',
  'id_token_hint',
  'login_hint',
  'request',
  'request_uri',
  'registration',
] as const;

export type AuthorizeParameterName = (typeof AUTHORIZE_PARAMETERS)[number];

/** Any of them may be missing: the control plane judges. */
export type AuthorizeParameters = Partial<Record<AuthorizeParameterName, string>>;

/** A refused authorization request. Not redirectable: unknown client or unregistered redirect URI. */
export interface AuthorizeRefusal {
  error: string;
  errorDescription?: string;
  redirectable: boolean;
}

/** A request the control plane accepts, with what the consent screen shows. */
export interface AcceptedAuthorizeRequest {
  clientId: string;
  clientName: string;
  redirectUri: string;
  scopes: Array<{ name: string; description: string }>;
  /** The user the request's `id_token_hint` names. */
  hintedSubject?: string;
}

export type AuthorizeCheck =
  { ok: true; request: AcceptedAuthorizeRequest } | { ok: false; refusal: AuthorizeRefusal };

export type AuthorizeDecision =
  | { outcome: 'redirect'; redirectTo: string }
  | { outcome: 'refused'; refusal: AuthorizeRefusal }
  | { outcome: 'session-expired' };

/** The authorization request checks and the user's decision, owned by the control plane. */
@Injectable()
export class AuthorizationClient {
  constructor(private readonly controlPlane: ControlPlaneClient) {}

  async check(parameters: AuthorizeParameters): Promise<AuthorizeCheck> {
    const path = `/${internalPathOf(INTERNAL_AUTHORIZE_OPERATIONS.check)}`;
    const { status, body } = await postInternalJson(
      this.controlPlane,
      path,
      parameters satisfies AuthorizationRequestDto,
    );
    if (status === 400) return { ok: false, refusal: toRefusal(path, body) };
    const request = status === 200 ? toAccepted(body) : undefined;
    return request ? { ok: true, request } : unexpectedAnswer(path, status);
  }

  async decide(
    parameters: AuthorizeParameters,
    session: string,
    approved: boolean,
  ): Promise<AuthorizeDecision> {
    const path = `/${internalPathOf(INTERNAL_AUTHORIZE_OPERATIONS.decision)}`;
    const { status, body } = await postInternalJson(
      this.controlPlane,
      path,
      { ...parameters, session, approved } satisfies AuthorizationDecisionDto,
      { answersUnauthorized: true },
    );
    if (status === 401) return { outcome: 'session-expired' };
    if (status === 400) return { outcome: 'refused', refusal: toRefusal(path, body) };
    if (status === 200 && isRecord(body) && isString(body.redirect_to)) {
      return { outcome: 'redirect', redirectTo: body.redirect_to };
    }
    return unexpectedAnswer(path, status);
  }
}

function toRefusal(path: string, body: unknown): AuthorizeRefusal {
  if (!isRecord(body) || !isString(body.error)) return unexpectedAnswer(path, 400);
  return {
    error: body.error,
    ...(isString(body.error_description) && { errorDescription: body.error_description }),
    // Anything but an explicit true keeps the browser here: never redirect on a doubt.
    redirectable: body.redirectable === true,
  };
}

function toAccepted(body: unknown): AcceptedAuthorizeRequest | undefined {
  if (!isRecord(body) || !isString(body.client_id) || !isString(body.redirect_uri)) return undefined;
  const scopes = Array.isArray(body.scopes) ? body.scopes : [];
  return {
    clientId: body.client_id,
    clientName: isString(body.client_name) && body.client_name !== '' ? body.client_name : body.client_id,
    redirectUri: body.redirect_uri,
    ...(isString(body.hinted_subject) && { hintedSubject: body.hinted_subject }),
    scopes: scopes.filter(isRecord).map((scope) => ({
      name: isString(scope.name) ? scope.name : '',
      description:
        isString(scope.description) && scope.description !== ''
          ? scope.description
          : String(scope.name ?? ''),
    })),
  };
}
