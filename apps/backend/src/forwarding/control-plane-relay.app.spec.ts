import { connect } from 'node:net';
import { Readable } from 'node:stream';
import type { LoggerService } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp } from '@platform/http';
import { BackendModule } from '../backend.module';
import { ControlPlaneClient, type UpstreamStream } from '../clients/control-plane.client';
import { SidecarClient } from '../clients/sidecar.client';
import { claimsFactory, fakeControlPlane, fakeSidecar, testConfig, withProviders } from '../testing/fakes';

const quiet: LoggerService = { log() {}, error() {}, warn() {}, debug() {}, verbose() {} };

describe('the relay of a live stream', () => {
  let app: NestFastifyApplication;
  let port: number;
  const controlPlane = { ...fakeControlPlane(), stream: jest.fn() };

  beforeAll(async () => {
    const sidecar = fakeSidecar();
    sidecar.validateToken.mockResolvedValue(
      claimsFactory({ sub: 'admin', client_id: 'admin', scope: 'admin.*' }),
    );
    const module = withProviders(BackendModule.forRoot(testConfig()), [
      { provide: SidecarClient, useValue: sidecar },
      { provide: ControlPlaneClient, useValue: controlPlane },
    ]);
    app = await createHttpApp(module, { logger: quiet });
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as { port: number }).port;
  });
  afterAll(async () => {
    await app.close();
  });

  it('abandons the upstream stream when its client left while the control plane was asked', async () => {
    let upstreamSignal: AbortSignal | undefined;
    const answered = new Promise<void>((resolve) =>
      controlPlane.stream.mockImplementation(async (_request: unknown, signal: AbortSignal) => {
        upstreamSignal = signal;
        await new Promise((wait) => setTimeout(wait, 200));
        resolve();
        const body = new Readable({ read() {} });
        signal.addEventListener('abort', () => body.destroy(new Error('aborted')));
        return { status: 200, headers: {}, body } satisfies UpstreamStream;
      }),
    );
    const client = connect(port, '127.0.0.1', () => {
      client.write(
        'GET /api/v1/token-events HTTP/1.1\r\nhost: test\r\naccept: text/event-stream\r\n' +
          'authorization: Bearer admin-token\r\n\r\n',
      );
    });
    client.on('error', () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.destroy();
    await answered;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(upstreamSignal?.aborted).toBe(true);
  });
});
