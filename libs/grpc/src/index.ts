import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { loadSync, type Options } from '@grpc/proto-loader';
import { correlationInterceptor } from './correlation';

export * from './correlation';

/** `proto/` at the repository root is the single source of every service definition. */
export const PROTO_ROOT = join(__dirname, '..', '..', '..', 'proto');

export const AUTH_PROTO = 'platform/auth/v1/auth.proto';
export const POLICY_PROTO = 'platform/policy/v1/policy.proto';
export const TENANT_PROTO = 'platform/tenant/v1/tenant.proto';

export const AUTH_SERVICE_NAME = 'platform.auth.v1.AuthService';
export const POLICY_SERVICE_NAME = 'platform.policy.v1.PolicyService';
export const TENANT_SERVICE_NAME = 'platform.tenant.v1.TenantService';

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
/** Trailing metadata of a PERMISSION_DENIED answer: the decision id and the deciding policies. */
export const DECISION_ID_METADATA = 'x-decision-id';
/** Comma-separated policy ids (`token-scope`, `tenant-isolation`, ...); absent for the default deny. */
export const DECIDED_BY_METADATA = 'x-decided-by';

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

export interface AuthorizeRequest {
  token: string;
  /** Scope-shaped action, e.g. `users.read`. */
  action: string;
  /** Tenant of the resource; empty for platform-wide resources. */
  resource_tenant: string;
}

export interface AuthorizeResponse {
  claims: TokenClaims;
  decided_by: string[];
  decision_id: string;
}

/** A `DenyListEntry` of the invalidation stream; `created_at` in Unix seconds. */
export interface DenyListEntryMessage {
  kind: 'jti' | 'client' | 'grant';
  value: string;
  created_at: number;
}

/**
 * One message of `WatchInvalidations`, as proto-loader decodes it (`oneofs: true` names the
 * field that is set in `change`). `seq` is the sidecar's applied revocation seq at that moment.
 */
export type InvalidationMessage = { seq: number } & (
  | { change: 'ready'; ready: Record<string, never> }
  | { change: 'revocation'; revocation: DenyListEntryMessage }
  | { change: 'seq_advanced'; seq_advanced: Record<string, never> }
  | { change: 'keys_removed'; keys_removed: { kids: string[] } }
);

/** The `change` field set in an InvalidationMessage. */
export type InvalidationChange = InvalidationMessage['change'];

type ServerStreaming<Req, Res> = (
  request: Req,
  metadata: grpc.Metadata,
  options?: Partial<grpc.CallOptions>,
) => grpc.ClientReadableStream<Res>;

/** Typed client of platform.auth.v1.AuthService. */
export interface AuthServiceClient extends grpc.Client {
  ValidateToken: Unary<{ token: string }, { claims: TokenClaims }>;
  Authorize: Unary<AuthorizeRequest, AuthorizeResponse>;
  RevokeToken: Unary<{ token: string }, Record<string, never>>;
  GetJwks: Unary<Record<string, never>, { keys: JsonWebKeyMessage[] }>;
  SyncRevocations: Unary<Record<string, never>, { last_seq: number }>;
  WatchInvalidations: ServerStreaming<Record<string, never>, InvalidationMessage>;
}

export function createAuthServiceClient(
  address: string,
  options: grpc.ChannelOptions = {},
): AuthServiceClient {
  return createClient<AuthServiceClient>(AUTH_PROTO, AUTH_SERVICE_NAME, address, options);
}

/** platform.policy.v1.Principal: `kind` is "user" (tenant, roles) or "service". */
export interface PrincipalMessage {
  kind: string;
  id: string;
  client_id: string;
  tenant: string;
  roles: string[];
  /** The scopes of the token (users and services alike). */
  scopes: string[];
}

export interface EvaluateRequest {
  principal?: Partial<PrincipalMessage>;
  action: string;
  resource_tenant?: string;
}

export interface PolicyMessage {
  id: string;
  description: string;
  /** "allow" or "deny". */
  effect: string;
  roles: string[];
  actions: string[];
  /** "own", "other" or "any". */
  tenants: string;
}

export interface DryRunRequest {
  request?: EvaluateRequest;
  candidate_policies?: Array<Partial<PolicyMessage>>;
}

export interface EvaluateResponse {
  /** "allow" or "deny". */
  decision: string;
  decided_by: string[];
  reason: string;
  decision_id: string;
  enforced: boolean;
}

/** Typed client of platform.policy.v1.PolicyService. */
export interface PolicyServiceClient extends grpc.Client {
  Evaluate: Unary<EvaluateRequest, EvaluateResponse>;
  DryRun: Unary<DryRunRequest, EvaluateResponse>;
}

export function createPolicyServiceClient(
  address: string,
  options: grpc.ChannelOptions = {},
): PolicyServiceClient {
  return createClient<PolicyServiceClient>(POLICY_PROTO, POLICY_SERVICE_NAME, address, options);
}

export interface ResolveTenantResponse {
  tenant: string;
  platform_wide: boolean;
  roles: string[];
}

export interface ValidateIsolationRequest {
  token: string;
  resource_tenant: string;
}

export interface ValidateIsolationResponse {
  allowed: boolean;
  reason: string;
}

/** Typed client of platform.tenant.v1.TenantService. */
export interface TenantServiceClient extends grpc.Client {
  ResolveTenant: Unary<{ token: string }, ResolveTenantResponse>;
  ValidateIsolation: Unary<ValidateIsolationRequest, ValidateIsolationResponse>;
}

export function createTenantServiceClient(
  address: string,
  options: grpc.ChannelOptions = {},
): TenantServiceClient {
  return createClient<TenantServiceClient>(TENANT_PROTO, TENANT_SERVICE_NAME, address, options);
}

/** An insecure (loopback) client, carrying the correlation id, of the fully qualified `service` defined in `protoFile`. */
function createClient<T>(
  protoFile: string,
  service: string,
  address: string,
  options: grpc.ChannelOptions,
): T {
  const definition = loadProto(protoFile)[service] as grpc.ServiceDefinition;
  const Client = grpc.makeClientConstructor(definition, service);
  return new Client(address, grpc.credentials.createInsecure(), {
    ...options,
    interceptors: [correlationInterceptor],
  }) as unknown as T;
}
