import { Injectable } from '@nestjs/common';
import { PLATFORM_VERSION } from '@platform/config';
import type { HealthDto } from '@platform/contract';
import { SidecarClient, type SidecarState } from '../clients/sidecar.client';

/** What `GET /health` answers (HealthDto of the contract). */
export type HealthReport = HealthDto & { sidecar: SidecarState };

/** The backend is healthy when the sidecar it validates every token with is serving. */
@Injectable()
export class HealthService {
  constructor(private readonly sidecar: SidecarClient) {}

  async check(): Promise<HealthReport> {
    const sidecar = await this.sidecar.state();
    return { status: sidecar === 'connected' ? 'ok' : 'degraded', sidecar, version: PLATFORM_VERSION };
  }
}
