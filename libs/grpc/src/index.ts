import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { loadSync, type Options } from '@grpc/proto-loader';

/** `proto/` at the repository root is the single source of every service definition. */
export const PROTO_ROOT = join(__dirname, '..', '..', '..', 'proto');

export const AUTH_PROTO = 'platform/auth/v1/auth.proto';

/** Field names stay snake_case as written in the .proto files; int64 arrives as number. */
export const PROTO_LOADER_OPTIONS: Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
};

export function loadProto(file: string) {
  return loadSync(file, PROTO_LOADER_OPTIONS);
}

export const INTERNAL_TOKEN_METADATA = 'x-internal-token';
export const REQUEST_ID_METADATA = 'x-request-id';

export interface TokenClaims {
  iss: string;
  sub: string;
  aud: string;
  exp: number;
  iat: number;
  jti: string;
  client_id: string;
  scope: string;
  tenant: string;
  roles: string[];
  grant_id: string;
}

export interface JsonWebKeyMessage {
  kty: string;
  use: string;
  alg: string;
  kid: string;
  n: string;
  e: string;
}

type Unary<Req, Res> = (
  request: Req,
  metadata: grpc.Metadata,
  options: Partial<grpc.CallOptions>,
  callback: (error: grpc.ServiceError | null, response: Res) => void,
) => grpc.ClientUnaryCall;

/** Typed client of platform.auth.v1.AuthService. */
export interface AuthServiceClient extends grpc.Client {
  ValidateToken: Unary<{ token: string }, { claims: TokenClaims }>;
  RevokeToken: Unary<{ token: string }, Record<string, never>>;
  GetJwks: Unary<Record<string, never>, { keys: JsonWebKeyMessage[] }>;
  SyncRevocations: Unary<Record<string, never>, { last_seq: number }>;
}

export function createAuthServiceClient(
  address: string,
  options: grpc.ChannelOptions = {},
): AuthServiceClient {
  const pkg = grpc.loadPackageDefinition(loadProto(AUTH_PROTO)) as unknown as {
    platform: { auth: { v1: { AuthService: grpc.ServiceClientConstructor } } };
  };
  return new pkg.platform.auth.v1.AuthService(
    address,
    grpc.credentials.createInsecure(),
    options,
  ) as unknown as AuthServiceClient;
}
