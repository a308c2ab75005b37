import type { INestMicroservice, NestApplicationOptions } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SidecarGrpcServer } from './grpc/sidecar-grpc.server';
import { SidecarModule, type SidecarModuleOptions } from './sidecar.module';

/** Builds the sidecar on its gRPC server and starts serving (the process and the specs boot it so). */
export async function startSidecar(
  options: SidecarModuleOptions,
  appOptions: NestApplicationOptions = {},
): Promise<INestMicroservice> {
  const server = new SidecarGrpcServer(options.config);
  const app = await NestFactory.createMicroservice(SidecarModule.forRoot(options, server), {
    ...appOptions,
    strategy: server,
  });
  try {
    await app.listen();
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
