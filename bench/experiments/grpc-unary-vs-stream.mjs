#!/usr/bin/env node
/**
 * What one token validation costs on the wire: a unary call (today's ValidateToken) against one
 * message on a long-lived bidirectional stream (the proposal in docs/performance.md). The server
 * answers fixed claims at once, so only gRPC's own cost is measured: CPU microseconds per call
 * in the client (this process) and in the server (a child process), 64 calls in flight.
 *
 *   node bench/experiments/grpc-unary-vs-stream.mjs [--seconds 4]
 */
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTO = `syntax = "proto3";
package experiment.v1;
service Validation {
  rpc ValidateToken(Request) returns (Response);
  rpc ValidateTokens(stream Request) returns (stream Response);
}
message Request { uint64 id = 1; string token = 2; }
message Claims { string iss = 1; string sub = 2; string aud = 3; int64 exp = 4; int64 iat = 5;
  string jti = 6; string client_id = 7; string scope = 8; string tenant = 9;
  repeated string roles = 10; string grant_id = 11; }
message Response { uint64 id = 1; Claims claims = 2; uint32 code = 3; string message = 4; }
`;
const CLAIMS = {
  iss: 'http://127.0.0.1:3000',
  sub: 'bench',
  aud: 'http://127.0.0.1:3000',
  exp: 1_900_000_000,
  iat: 1_899_996_400,
  jti: 'x'.repeat(22),
  client_id: 'bench',
  scope: 'jobs.read',
  tenant: '',
  roles: [],
  grant_id: '',
};
const CONCURRENCY = 64;

function load(protoFile) {
  const definition = protoLoader.loadSync(protoFile, { keepCase: true, longs: Number, defaults: true });
  return grpc.loadPackageDefinition(definition).experiment.v1.Validation;
}

function serve(protoFile) {
  const server = new grpc.Server();
  server.addService(load(protoFile).service, {
    ValidateToken: (call, callback) => callback(null, { id: call.request.id, claims: CLAIMS }),
    ValidateTokens: (call) => {
      call.on('data', (request) => call.write({ id: request.id, claims: CLAIMS }));
      call.on('end', () => call.end());
    },
  });
  server.bindAsync('[::1]:0', grpc.ServerCredentials.createInsecure(), (error, port) => {
    if (error) throw error;
    process.send({ port });
  });
}

const cpuSecondsOf = (pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

async function measure(mode, protoFile, seconds) {
  const server = fork(new URL(import.meta.url).pathname, ['--serve', protoFile], { stdio: 'inherit' });
  const { port } = await new Promise((resolve) => server.once('message', resolve));
  const client = new (load(protoFile))(`[::1]:${port}`, grpc.credentials.createInsecure());
  const token = 'e'.repeat(800);
  const pending = new Map();
  let nextId = 1;
  let stream;
  if (mode === 'stream') {
    stream = client.ValidateTokens();
    stream.on('data', (response) => {
      const done = pending.get(response.id);
      pending.delete(response.id);
      done();
    });
    stream.on('error', () => {});
  }
  const call = (done) => {
    if (mode === 'unary') {
      client.ValidateToken({ id: 0, token }, new grpc.Metadata(), { deadline: Date.now() + 2000 }, done);
    } else {
      const id = nextId++;
      pending.set(id, done);
      stream.write({ id, token });
    }
  };
  const run = (ms) =>
    new Promise((resolve) => {
      let count = 0;
      let inFlight = 0;
      const end = Date.now() + ms;
      const next = () => {
        inFlight++;
        call(() => {
          inFlight--;
          count++;
          if (Date.now() < end) next();
          else if (inFlight === 0) resolve(count);
        });
      };
      for (let i = 0; i < CONCURRENCY; i++) next();
    });
  await run(1000);
  const clientBefore = process.cpuUsage();
  const serverBefore = cpuSecondsOf(server.pid);
  const started = performance.now();
  const calls = await run(seconds * 1000);
  const elapsed = (performance.now() - started) / 1000;
  const clientCpu = process.cpuUsage(clientBefore);
  const serverCpu = cpuSecondsOf(server.pid) - serverBefore;
  stream?.end();
  client.close();
  server.kill();
  return {
    mode,
    callsPerSecond: Math.round(calls / elapsed),
    clientMicrosPerCall: Math.round((clientCpu.user + clientCpu.system) / calls),
    serverMicrosPerCall: Math.round((serverCpu * 1e6) / calls),
  };
}

if (process.argv[2] === '--serve') {
  serve(process.argv[3]);
} else {
  const { values } = parseArgs({ options: { seconds: { type: 'string', default: '4' } } });
  const dir = mkdtempSync(join(tmpdir(), 'grpc-experiment-'));
  const protoFile = join(dir, 'validation.proto');
  writeFileSync(protoFile, PROTO);
  try {
    for (const mode of ['unary', 'stream', 'unary', 'stream']) {
      console.log(await measure(mode, protoFile, Number(values.seconds)));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
}
