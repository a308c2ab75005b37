import { Injectable } from '@nestjs/common';
import { LocalRevocation } from '../auth/local-revocation';
import { ControlPlaneClient, type UpstreamResponse } from '../clients/control-plane.client';
import type { Caller } from '../http/caller';

export type OAuthEndpoint = 'token' | 'introspect' | 'revoke';

const FORM = 'application/x-www-form-urlencoded';
const JWKS_CACHE_CONTROL = 'public, max-age=60';

/**
 * The OAuth endpoints live in the control plane (it verifies clients and signs); the backend
 * forwards the client's form body and Authorization header verbatim and relays the answer.
 */
@Injectable()
export class OAuthService {
  constructor(
    private readonly controlPlane: ControlPlaneClient,
    private readonly localRevocation: LocalRevocation,
  ) {}

  async forward(endpoint: OAuthEndpoint, form: string, caller: Caller): Promise<UpstreamResponse> {
    const response = await this.controlPlane.request({
      method: 'POST',
      path: `/internal/v1/oauth/${endpoint}`,
      requestId: caller.requestId,
      authorization: caller.authorization,
      contentType: FORM,
      body: form,
    });
    response.headers['cache-control'] ??= 'no-store';
    if (endpoint === 'revoke' && response.status === 200) {
      // Persisted: this backend refuses the token (and what else it revoked) from the next request on.
      const token = new URLSearchParams(form).get('token') ?? undefined;
      await this.localRevocation.applyNow(caller.requestId, token);
    }
    return response;
  }

  async jwks(caller: Caller): Promise<UpstreamResponse> {
    const response = await this.controlPlane.request({
      method: 'GET',
      path: '/api/v1/jwks',
      requestId: caller.requestId,
    });
    if (response.status === 200) response.headers['cache-control'] = JWKS_CACHE_CONTROL;
    return response;
  }
}
