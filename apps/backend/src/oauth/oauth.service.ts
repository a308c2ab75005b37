import { Injectable, Logger } from '@nestjs/common';
import { ControlPlaneClient, type UpstreamResponse } from '../clients/control-plane.client';
import { SidecarClient } from '../clients/sidecar.client';
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
  private readonly logger = new Logger(OAuthService.name);

  constructor(
    private readonly controlPlane: ControlPlaneClient,
    private readonly sidecar: SidecarClient,
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
    if (endpoint === 'revoke' && response.status === 200) await this.syncSidecar(caller.requestId);
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

  /**
   * The revocation is already persisted; the local sidecar is told at once so this backend
   * refuses the token on the next request. If it cannot be told now, its stream catches up.
   */
  private async syncSidecar(requestId: string): Promise<void> {
    try {
      await this.sidecar.syncRevocations(requestId);
    } catch (error) {
      this.logger.warn(
        `[${requestId}] revocation persisted but the sidecar was not synced: ${(error as Error).message}`,
      );
    }
  }
}
