import {
  ASSERTION_SIGNING_ALGS,
  DEVICE_CODE_GRANT,
  JWT_BEARER_GRANT,
  SAML2_BEARER_GRANT,
  DPOP_ALGORITHMS,
  ID_TOKEN_CLAIMS,
  OIDC_SCOPES,
  PROMPT_VALUES,
  STANDARD_SCOPES,
  TOKEN_EXCHANGE_GRANT,
  USERINFO_CLAIMS,
} from '@platform/domain';

/**
 * RFC 8414 authorization server metadata of the backend's public surface, which is also its
 * OpenID Provider configuration (Discovery 1.0): one document, served at both addresses.
 */
export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/v1/oauth/token`,
    jwks_uri: `${issuer}/v1/jwks`,
    introspection_endpoint: `${issuer}/v1/oauth/introspect`,
    revocation_endpoint: `${issuer}/v1/oauth/revoke`,
    device_authorization_endpoint: `${issuer}/v1/oauth/device_authorization`,
    userinfo_endpoint: `${issuer}/v1/oauth/userinfo`,
    end_session_endpoint: `${issuer}/oauth/logout`,
    scopes_supported: [...OIDC_SCOPES, ...STANDARD_SCOPES].map((scope) => scope.name),
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [
      'client_credentials',
      'authorization_code',
      'refresh_token',
      TOKEN_EXCHANGE_GRANT,
      DEVICE_CODE_GRANT,
      JWT_BEARER_GRANT,
      SAML2_BEARER_GRANT,
    ],
    // private_key_jwt (RFC 7523 section 2.2) wherever a client authenticates (docs/workload-identity.md).
    token_endpoint_auth_methods_supported: [
      'client_secret_basic',
      'client_secret_post',
      'private_key_jwt',
      'none',
    ],
    token_endpoint_auth_signing_alg_values_supported: [...ASSERTION_SIGNING_ALGS],
    introspection_endpoint_auth_methods_supported: [
      'client_secret_basic',
      'client_secret_post',
      'private_key_jwt',
    ],
    introspection_endpoint_auth_signing_alg_values_supported: [...ASSERTION_SIGNING_ALGS],
    revocation_endpoint_auth_methods_supported: [
      'client_secret_basic',
      'client_secret_post',
      'private_key_jwt',
    ],
    revocation_endpoint_auth_signing_alg_values_supported: [...ASSERTION_SIGNING_ALGS],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    claims_supported: [...new Set([...ID_TOKEN_CLAIMS, ...USERINFO_CLAIMS])],
    prompt_values_supported: [...PROMPT_VALUES],
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    claims_parameter_supported: false,
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    // RFC 9449 section 5.1: DPoP proofs are accepted with these algorithms (docs/tokens.md).
    dpop_signing_alg_values_supported: [...DPOP_ALGORITHMS],
  };
}

export type AuthorizationServerMetadata = ReturnType<typeof authorizationServerMetadata>;
