import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Readiness } from '../health/readiness';
import { SidecarGrpcServer } from './sidecar-grpc.server';

/** gRPC health follows readiness: every service SERVING once the keys and the deny-list are loaded. */
@Injectable()
export class ServingStatus implements OnApplicationBootstrap {
  constructor(
    private readonly server: SidecarGrpcServer,
    private readonly readiness: Readiness,
  ) {}

  onApplicationBootstrap(): void {
    this.readiness.onReady(() => this.server.setServing(true));
  }
}
