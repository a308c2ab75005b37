import { Injectable } from '@nestjs/common';
import {
  INTERNAL_SAML_OPERATIONS,
  internalPathOf,
  type SamlAssertionConsumerDto,
  type SamlLoginStartDto,
} from '@platform/contract';
import { DomainError } from '@platform/domain';
import { ControlPlaneClient } from '../clients/control-plane.client';
import { isRecord, isString, postInternalJson, unexpectedAnswer } from '../clients/internal-json';
import { sessionOf, type NewSession } from '../clients/sessions.client';

const NO_IDP = 'This organisation has no SAML sign-in configured.';

/**
 * The SAML sign-in's internal routes (`/internal/v1/saml/*`, docs/saml.md): the control plane
 * builds the AuthnRequest and judges the Response; the backend only carries them.
 */
@Injectable()
export class SamlClient {
  constructor(private readonly controlPlane: ControlPlaneClient) {}

  async start(tenant: string): Promise<{ redirectUrl: string; requestId: string }> {
    const path = `/${internalPathOf(INTERNAL_SAML_OPERATIONS.start)}`;
    const { status, body } = await postInternalJson(this.controlPlane, path, {
      tenant,
    } satisfies SamlLoginStartDto);
    if (status === 404 || status === 400) throw new DomainError('not_found', NO_IDP);
    const answer = status === 201 && isRecord(body) ? body : {};
    if (!isString(answer.redirect_url) || !isString(answer.request_id)) return unexpectedAnswer(path, status);
    return { redirectUrl: answer.redirect_url, requestId: answer.request_id };
  }

  /** The Response the browser posted; a refusal is a 400 page with the control plane's words. */
  async finish(tenant: string, samlResponse: string, requestId: string | undefined): Promise<NewSession> {
    const path = `/${internalPathOf(INTERNAL_SAML_OPERATIONS.finish)}`;
    const { status, body } = await postInternalJson(this.controlPlane, path, {
      tenant,
      saml_response: samlResponse,
      ...(requestId !== undefined && { request_id: requestId }),
    } satisfies SamlAssertionConsumerDto);
    const detail = isRecord(body) && isString(body.detail) ? body.detail : undefined;
    if (status === 400) {
      throw new DomainError(
        'validation_failed',
        detail ?? 'Your identity provider’s answer could not be accepted.',
      );
    }
    if (status === 403) throw new DomainError('forbidden', 'This account is deactivated.');
    if (status === 404) throw new DomainError('not_found', NO_IDP);
    if (status !== 201) return unexpectedAnswer(path, status);
    return sessionOf(path, status, body);
  }
}
