import { STANDARD_SCOPES, TOKEN_EXCHANGE_GRANT } from '@platform/domain';

/** RFC 8414 authorization server metadata of the backend's public surface. */
export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/v1/oauth/token`,
    jwks_uri: `${issuer}/v1/jwks`,
    introspection_endpoint: `${issuer}/v1/oauth/introspect`,
    revocation_endpoint: `${issuer}/v1/oauth/revoke`,
    scopes_supported: STANDARD_SCOPES.map((scope) => scope.name),
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['client_credentials', 'authorization_code', 'refresh_token', TOKEN_EXCHANGE_GRANT],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
  };
}

export type AuthorizationServerMetadata = ReturnType<typeof authorizationServerMetadata>;
