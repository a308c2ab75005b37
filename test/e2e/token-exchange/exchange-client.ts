import * as grpc from '@grpc/grpc-js';
import { TOKEN_EXCHANGE_GRANT, TOKEN_TYPE } from '@platform/domain';
import type { AuthServiceClient, TokenClaims } from '@platform/grpc';
import * as oauth from 'oauth4webapi';
import { unaryCall } from '../../support/grpc';
import type { RegisteredApp } from '../../support/oauth';

/** RFC 8693's grant type and the subject token type of a platform access token. */
export const TOKEN_EXCHANGE = TOKEN_EXCHANGE_GRANT;
export const ACCESS_TOKEN_TYPE = TOKEN_TYPE.accessToken;

/**
 * Token exchange by `app` (client_secret_basic) through oauth4webapi's generic token endpoint
 * request, unmodified, as a resource server in another code base would send it. A refusal
 * rejects with oauth4webapi's ResponseBodyError (`refusal` reads its error code). URLSearchParams
 * `parameters` may repeat one (a second `resource`).
 */
export async function exchange(
  as: oauth.AuthorizationServer,
  app: RegisteredApp,
  subjectToken: string,
  parameters: Record<string, string> | URLSearchParams = {},
): Promise<oauth.TokenEndpointResponse> {
  const client = { client_id: app.client_id };
  const form = new URLSearchParams({ subject_token: subjectToken, subject_token_type: ACCESS_TOKEN_TYPE });
  for (const [name, value] of new URLSearchParams(parameters)) form.append(name, value);
  const response = await oauth.genericTokenEndpointRequest(
    as,
    client,
    oauth.ClientSecretBasic(app.client_secret!),
    TOKEN_EXCHANGE,
    form,
    { [oauth.allowInsecureRequests]: true },
  );
  return oauth.processGenericTokenEndpointResponse(as, client, response);
}

/** The OAuth error code (and HTTP status) a token request was refused with. */
export async function refusal(request: Promise<unknown>): Promise<{ status: number; error: string }> {
  const error = await request.then(
    () => new Error('the request was not refused'),
    (e: unknown) => e,
  );
  if (!(error instanceof oauth.ResponseBodyError)) throw error;
  return { status: error.status, error: error.error };
}

/**
 * What a resource server learns from its sidecar: ValidateToken for `audience` (its
 * `resource_uri`; '' for the platform's own API): the gRPC status, and the claims when OK.
 */
export async function validateAt(
  sidecar: AuthServiceClient,
  token: string,
  audience: string,
): Promise<{ code: grpc.status; claims?: TokenClaims }> {
  const { error, response } = await unaryCall<{ claims: TokenClaims | null }>((metadata, options, done) =>
    sidecar.ValidateToken({ token, audience }, metadata, options, done),
  );
  return error ? { code: error.code } : { code: grpc.status.OK, claims: response.claims ?? undefined };
}
