import { Injectable } from '@nestjs/common';
import { internalPathOf, INTERNAL_LOGOUT_OPERATIONS, type LogoutCheckDto } from '@platform/contract';
import { DomainError } from '@platform/domain';
import { ControlPlaneClient } from '../clients/control-plane.client';
import { isRecord, isString, postInternalJson, unexpectedAnswer } from '../clients/internal-json';

/** An RP-initiated logout request as the end-session endpoint read it. */
export interface EndSessionParameters {
  idTokenHint?: string;
  clientId?: string;
  postLogoutRedirectUri?: string;
  state?: string;
}

/** What the control plane allows of it. */
export interface CheckedEndSession {
  clientName: string | null;
  /** The registered `post_logout_redirect_uri` with `state`, or null: the signed-out page. */
  redirectTo: string | null;
  sessionLive: boolean;
  hintMatchesSession: boolean;
}

/** The control plane's check of an RP-initiated logout request (`/internal/v1/logout/check`). */
@Injectable()
export class EndSessionClient {
  constructor(private readonly controlPlane: ControlPlaneClient) {}

  async check(parameters: EndSessionParameters, session: string | undefined): Promise<CheckedEndSession> {
    const path = `/${internalPathOf(INTERNAL_LOGOUT_OPERATIONS.check)}`;
    const { status, body } = await postInternalJson(this.controlPlane, path, {
      ...(session !== undefined && { session }),
      ...(parameters.idTokenHint !== undefined && { id_token_hint: parameters.idTokenHint }),
      ...(parameters.clientId !== undefined && { client_id: parameters.clientId }),
      ...(parameters.postLogoutRedirectUri !== undefined && {
        post_logout_redirect_uri: parameters.postLogoutRedirectUri,
      }),
      ...(parameters.state !== undefined && { state: parameters.state }),
    } satisfies LogoutCheckDto);
    if (status === 400) {
      // The refusal is the control plane's own sentence; the page shows it, never redirecting.
      const detail = isRecord(body) && isString(body.detail) ? body.detail : 'The logout request is invalid.';
      throw new DomainError('validation_failed', detail);
    }
    if (status !== 200 || !isRecord(body)) return unexpectedAnswer(path, status);
    return {
      clientName: isString(body.client_name) ? body.client_name : null,
      redirectTo: isString(body.redirect_to) ? body.redirect_to : null,
      sessionLive: body.session_live === true,
      hintMatchesSession: body.hint_matches_session === true,
    };
  }
}
