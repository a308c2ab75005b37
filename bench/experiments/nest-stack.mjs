#!/usr/bin/env node
/**
 * The stack the design names against the one the code runs, on our own hot routes, side by side
 * in one run (docs/decisions.md, "The Nest stack"):
 *
 * - HTTP: the same Nest controllers served by @nestjs/platform-fastify and by
 *   @nestjs/platform-express, each in its own process: the protected route (a guard answering
 *   from an in-process cache, as the backend's live validation cache does) and token issuance
 *   (the form forwarded to the real control plane, as the backend relays it);
 * - gRPC: ValidateToken of the real sidecar (served through @nestjs/microservices) against its
 *   TokenValidator behind a raw grpc-js server (what it ran before), and behind minimal
 *   @nestjs/microservices apps: bare, with a guard and an exception filter, and with an
 *   interceptor too.
 *
 *   npm run build && node bench/experiments/nest-stack.mjs [--seconds 5] [--connections 32]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { grpc, grpcLoad, httpLoad, validateToken } from '../lib/load.mjs';
import { issueToken, registerServiceApp, form, FORM } from '../lib/oauth.mjs';
import { freePort, startPlatform } from '../lib/platform.mjs';
import { cleanup, installSignalHandlers, onCleanup } from '../lib/processes.mjs';

const require = createRequire(import.meta.url);
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    serve: { type: 'string' },
    port: { type: 'string' },
  },
});

if (values.serve) await serve(values.serve, Number(values.port));
else await compare(Number(values.seconds), Number(values.connections));

/** The parent: starts the platform and each server, loads them one at a time, prints ratios. */
async function compare(seconds, connections) {
  installSignalHandlers();
  try {
    const platform = await startPlatform();
    const app = await registerServiceApp(platform, `stack-${Date.now().toString(36)}`);
    const token = (await issueToken(`${platform.baseUrl}/v1/oauth/token`, app)).access_token;
    const issuance = form({
      grant_type: 'client_credentials',
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    const rows = [];
    const measure = async (label, load) => {
      await load(1); // warm-up
      const row = await load(seconds);
      rows.push({ label, ...row });
      console.log(
        `${label}: ${Math.round(row.rps)} req/s, p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms, ${row.errors} errors`,
      );
      return row;
    };

    const http = {};
    for (const adapter of ['fastify', 'express']) {
      const port = await freePort();
      await child(['--serve', adapter, '--port', String(port)], platform.env);
      const base = `http://127.0.0.1:${port}`;
      http[adapter] = {
        protected: await measure(`${adapter}: GET /v1/me (guard + cache)`, (s) =>
          httpLoad({ url: `${base}/v1/me`, headers: { authorization: `Bearer ${token}` }, connections }, s),
        ),
        issuance: await measure(`${adapter}: POST /v1/oauth/token (relayed)`, (s) =>
          httpLoad(
            {
              url: `${base}/v1/oauth/token`,
              method: 'POST',
              headers: { 'content-type': FORM },
              body: issuance,
              connections,
            },
            s,
          ),
        ),
      };
    }

    const ports = {
      raw: await freePort(),
      sidecar: await freePort(),
      bare: await freePort(),
      guarded: await freePort(),
      intercepted: await freePort(),
    };
    await child(['--serve', 'grpc', '--port', JSON.stringify(ports)], platform.env);
    const grpcRows = {};
    for (const [name, port] of Object.entries(ports)) {
      const { createAuthServiceClient } = require('@platform/grpc');
      const client = createAuthServiceClient(`127.0.0.1:${port}`);
      const metadata = new grpc.Metadata();
      const status = await validateToken(client, token, metadata);
      if (status !== grpc.status.OK) throw new Error(`${name} answered ${grpc.status[status]}`);
      const call = (done) => client.ValidateToken({ token }, metadata, (error) => done(error ?? undefined));
      grpcRows[name] = await measure(`gRPC ValidateToken: ${name}`, (s) =>
        grpcLoad({ call, concurrency: connections }, s),
      );
      client.close();
    }

    const ratio = (a, b) => (a.rps / b.rps).toFixed(2);
    console.log('\nratios (higher is faster):');
    console.log(
      `  express / fastify, protected route: ${ratio(http.express.protected, http.fastify.protected)}x`,
    );
    console.log(
      `  express / fastify, token issuance:  ${ratio(http.express.issuance, http.fastify.issuance)}x`,
    );
    for (const name of ['sidecar', 'bare', 'guarded', 'intercepted']) {
      console.log(
        `  @nestjs/microservices (${name}) / raw grpc-js, ValidateToken: ${ratio(grpcRows[name], grpcRows.raw)}x`,
      );
    }
  } finally {
    await cleanup();
  }
  process.exit(0);
}

/** Starts this script as a server child with the platform's environment; resolves once it listens. */
async function child(args, env) {
  const server = spawn(process.execPath, [fileURLToPath(import.meta.url), ...args], {
    env: { ...process.env, ...env, LOG_FORMAT: 'text' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  onCleanup(async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
  });
  let output = '';
  for await (const chunk of server.stdout) {
    output += chunk;
    if (output.includes('listening')) return server;
  }
  throw new Error(`server ${args.join(' ')} exited before listening`);
}

/** A child: one of the servers, until it is killed. */
async function serve(kind, port) {
  require('reflect-metadata');
  if (kind === 'grpc') return serveGrpc(JSON.parse(values.port));
  const common = require('@nestjs/common');
  const { NestFactory } = require('@nestjs/core');
  const { request } = require('undici');
  const controlPlane = process.env.CONTROL_PLANE_URL ?? 'http://127.0.0.1:8080';
  const internalToken = process.env.INTERNAL_TOKEN;
  const cache = new Map();

  // The backend's shape: a guard, a cache hit, JSON out; and a relay of the form to the control plane.
  class CachedBearerGuard {
    canActivate(context) {
      const request = context.switchToHttp().getRequest();
      const token = String(request.headers.authorization ?? '').slice(7);
      let claims = cache.get(token);
      if (claims === undefined) {
        const [, payload] = token.split('.');
        claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
        cache.set(token, claims);
      }
      request.claims = claims;
      return true;
    }
  }
  class StackController {
    me(request) {
      const { sub, client_id, scope, exp } = request.claims;
      return { sub, client_id, scope, exp };
    }
    async token(request, reply) {
      const upstream = await request_(request.body);
      if (kind === 'fastify')
        await reply
          .status(upstream.statusCode)
          .header('content-type', 'application/json')
          .send(upstream.body);
      else reply.status(upstream.statusCode).type('application/json').send(upstream.body);
    }
  }
  // Each token request alone, as a batch of one (the platform's backend batches them).
  const request_ = async (form) => {
    const response = await request(`${controlPlane}/internal/v1/oauth/token-batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-token': internalToken },
      body: JSON.stringify({ requests: [{ form, request_id: 'stack' }] }),
    });
    const [answer] = (await response.body.json()).answers;
    return { statusCode: answer.status, body: Buffer.from(JSON.stringify(answer.body)) };
  };
  const method = (name) => Object.getOwnPropertyDescriptor(StackController.prototype, name);
  common.Controller('v1')(StackController);
  common.Get('me')(StackController.prototype, 'me', method('me'));
  common.UseGuards(CachedBearerGuard)(StackController.prototype, 'me', method('me'));
  common.Req()(StackController.prototype, 'me', 0);
  common.Post('oauth/token')(StackController.prototype, 'token', method('token'));
  common.HttpCode(200)(StackController.prototype, 'token', method('token'));
  common.Req()(StackController.prototype, 'token', 0);
  common.Res()(StackController.prototype, 'token', 1);
  class StackModule {}
  common.Module({ controllers: [StackController] })(StackModule);

  let app;
  if (kind === 'fastify') {
    const { FastifyAdapter } = require('@nestjs/platform-fastify');
    app = await NestFactory.create(StackModule, new FastifyAdapter(), { logger: false, bodyParser: false });
    app
      .getHttpAdapter()
      .getInstance()
      .addContentTypeParser(FORM, { parseAs: 'string' }, (_req, body, done) => done(null, body));
  } else {
    const { ExpressAdapter } = require('@nestjs/platform-express');
    const express = require('express');
    app = await NestFactory.create(StackModule, new ExpressAdapter(), { logger: false, bodyParser: false });
    app.use(express.text({ type: FORM }));
  }
  await app.listen(port, '127.0.0.1');
  console.log(`${kind} listening`);
}

/**
 * The real sidecar (served through @nestjs/microservices since the port), its TokenValidator
 * behind a raw grpc-js server (what the sidecar ran before), and the same validator behind
 * minimal @nestjs/microservices apps.
 */
async function serveGrpc(ports) {
  const common = require('@nestjs/common');
  const { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, NestFactory } = require('@nestjs/core');
  const { GrpcMethod, RpcException, Transport } = require('@nestjs/microservices');
  const {
    AUTH_PROTO,
    AUTH_SERVICE_NAME,
    PROTO_LOADER_OPTIONS,
    PROTO_ROOT,
    correlatedHandlers,
    loadProto,
  } = require('@platform/grpc');
  const { loadSidecarConfig } = require('../../apps/sidecar/dist/config/sidecar-config.js');
  const { startSidecar } = require('../../apps/sidecar/dist/start-sidecar.js');
  const { TokenValidator } = require('../../apps/sidecar/dist/validation/token-validator.js');
  const { Readiness } = require('../../apps/sidecar/dist/health/readiness.js');
  const { toGrpcStatus } = require('../../apps/sidecar/dist/grpc/status-mapper.js');

  const config = { ...loadSidecarConfig(), grpcAddress: `127.0.0.1:${ports.sidecar}`, healthPort: 0 };
  const sidecar = await startSidecar({ config }, { logger: false });
  await sidecar.get(Readiness).whenReady();
  const validator = sidecar.get(TokenValidator);

  const raw = new grpc.Server();
  raw.addService(
    loadProto(AUTH_PROTO)[AUTH_SERVICE_NAME],
    correlatedHandlers({
      ValidateToken: (call, callback) =>
        validator.validate(call.request.token ?? '').then(
          (claims) => callback(null, { claims }),
          (error) => callback(toGrpcStatus(error)),
        ),
    }),
  );
  await new Promise((resolve, reject) =>
    raw.bindAsync(`127.0.0.1:${ports.raw}`, grpc.ServerCredentials.createInsecure(), (error) =>
      error ? reject(error) : resolve(),
    ),
  );

  const microservice = async (port, { guard, filter, interceptor }) => {
    class ValidateController {
      async validateToken(data) {
        return { claims: await validator.validate(data.token ?? '') };
      }
    }
    GrpcMethod('AuthService', 'ValidateToken')(
      ValidateController.prototype,
      'validateToken',
      Object.getOwnPropertyDescriptor(ValidateController.prototype, 'validateToken'),
    );
    common.Controller()(ValidateController);
    // What a port keeps: a guard reading the call's metadata, a filter mapping errors to statuses.
    class MetadataGuard {
      canActivate(context) {
        return context.switchToRpc().getContext() !== undefined;
      }
    }
    class StatusFilter {
      catch(error) {
        throw new RpcException(toGrpcStatus(error));
      }
    }
    common.Catch()(StatusFilter);
    class PassThrough {
      intercept(_context, next) {
        return next.handle();
      }
    }
    const providers = [
      ...(guard ? [{ provide: APP_GUARD, useClass: MetadataGuard }] : []),
      ...(filter ? [{ provide: APP_FILTER, useClass: StatusFilter }] : []),
      ...(interceptor ? [{ provide: APP_INTERCEPTOR, useClass: PassThrough }] : []),
    ];
    class ValidateModule {}
    common.Module({ controllers: [ValidateController], providers })(ValidateModule);
    const app = await NestFactory.createMicroservice(ValidateModule, {
      transport: Transport.GRPC,
      logger: false,
      options: {
        package: 'platform.auth.v1',
        protoPath: AUTH_PROTO,
        url: `127.0.0.1:${port}`,
        loader: { ...PROTO_LOADER_OPTIONS, includeDirs: [PROTO_ROOT] },
      },
    });
    await app.listen();
  };
  await microservice(ports.bare, {});
  await microservice(ports.guarded, { guard: true, filter: true });
  await microservice(ports.intercepted, { guard: true, filter: true, interceptor: true });
  console.log('grpc listening');
}
