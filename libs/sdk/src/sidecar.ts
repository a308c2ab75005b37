import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { join } from 'node:path';
import type { TokenSource } from './token-source';

/** Where the sidecar listens unless told otherwise. */
export const DEFAULT_SIDECAR_ADDRESS = '[::1]:50051';

/** What every client of a sidecar service takes. */
export interface SidecarClientOptions {
  /** The sidecar beside the app (`[::1]:50051` by default). */
  sidecarAddress?: string;
  /** The token each call is made for: a ServiceTokenSource, or a forwarded user token's. */
  tokens: Pick<TokenSource, 'getToken'>;
  /**
   * The tenant to act in (default: the token's own). An app bound to no tenant names one; each
   * call may name another.
   */
  tenant?: string;
}

/**
 * The package root of one of the sidecar's .proto files as the package ships them (`proto/`,
 * copied there at build time), typed by the generated `ProtoGrpcType`. The loader options are
 * those the types were generated with (scripts/generate.mjs).
 */
export function sidecarPackage<PackageRoot>(protoFile: string): PackageRoot {
  const definition = loadSync(protoFile, {
    keepCase: true,
    longs: Number,
    enums: String,
    defaults: true,
    oneofs: true,
    includeDirs: [join(__dirname, '..', 'proto')],
  });
  return grpc.loadPackageDefinition(definition) as unknown as PackageRoot;
}

/** An insecure (loopback) client of a generated service constructor. */
export function sidecarClient<Client extends grpc.Client>(
  Service: new (address: string, credentials: grpc.ChannelCredentials) => Client,
  address = DEFAULT_SIDECAR_ADDRESS,
): Client {
  return new Service(address, grpc.credentials.createInsecure());
}

/** One unary call as a promise: the answer, or the call's `ServiceError` (its code, details and trailers). */
export function unary<Answer>(
  invoke: (callback: (error: grpc.ServiceError | null, answer?: Answer) => void) => unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) =>
    invoke((error, answer) => (error ? reject(error) : resolve(answer!))),
  );
}
