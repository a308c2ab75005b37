import { Injectable, Logger } from '@nestjs/common';
import type { TokenClaims } from '@platform/grpc';
import { encodePrincipal } from '@platform/internal';
import { ControlPlaneApi } from '../control-plane/control-plane-api';

/** Reports in flight at once; under a flood the rest are dropped here (the control plane folds them anyway). */
const MAX_IN_FLIGHT = 16;

/**
 * Tells the control plane of every cross-tenant refusal this sidecar decides, to be audited
 * there (rate-limited, `CrossTenantRefusalAuditor`). Fire and forget: the refusal stands
 * whatever becomes of its record, and the caller never waits for it.
 */
@Injectable()
export class CrossTenantRefusalReporter {
  private readonly logger = new Logger(CrossTenantRefusalReporter.name);
  private inFlight = 0;

  constructor(private readonly controlPlane: ControlPlaneApi) {}

  report(claims: TokenClaims, refusal: { action: string; tenant: string; decisionId: string }): void {
    if (this.inFlight >= MAX_IN_FLIGHT) return;
    this.inFlight += 1;
    const body = { action: refusal.action, tenant: refusal.tenant, decision_id: refusal.decisionId };
    this.controlPlane
      .callAsPrincipal('POST', '/internal/v1/authorization/refusals', encodePrincipal(claims), body)
      .then(
        ({ status }) => {
          if (status !== 200)
            this.logger.warn(`cross-tenant refusal ${refusal.decisionId} not audited: ${status}`);
        },
        (error: unknown) =>
          this.logger.warn(
            `cross-tenant refusal ${refusal.decisionId} not audited: ${(error as Error).message}`,
          ),
      )
      .finally(() => {
        this.inFlight -= 1;
      });
  }
}
