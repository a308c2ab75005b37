import { authorizationServerMetadata } from './authorization-server-metadata';

describe('authorizationServerMetadata', () => {
  const metadata = authorizationServerMetadata('https://auth.example.test');

  it('names the issuer and every endpoint under it', () => {
    expect(metadata).toMatchObject({
      issuer: 'https://auth.example.test',
      authorization_endpoint: 'https://auth.example.test/oauth/authorize',
      token_endpoint: 'https://auth.example.test/v1/oauth/token',
      jwks_uri: 'https://auth.example.test/v1/jwks',
      introspection_endpoint: 'https://auth.example.test/v1/oauth/introspect',
      revocation_endpoint: 'https://auth.example.test/v1/oauth/revoke',
      device_authorization_endpoint: 'https://auth.example.test/v1/oauth/device_authorization',
    });
  });

  it('offers no dynamic client registration endpoint', () => {
    expect(metadata).not.toHaveProperty('registration_endpoint');
  });

  it('lists the standard scopes', () => {
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining(['jobs.read', 'admin.*', 'tokens.introspect']),
    );
  });

  it('advertises the code flow with S256 PKCE only and the three grants', () => {
    expect(metadata.response_types_supported).toEqual(['code']);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.grant_types_supported).toEqual([
      'client_credentials',
      'authorization_code',
      'refresh_token',
      'urn:ietf:params:oauth:grant-type:token-exchange',
      'urn:ietf:params:oauth:grant-type:device_code',
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
      'urn:ietf:params:oauth:grant-type:saml2-bearer',
    ]);
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
  });

  it('allows public clients at the token endpoint but not at introspection or revocation', () => {
    expect(metadata.token_endpoint_auth_methods_supported).toEqual([
      'client_secret_basic',
      'client_secret_post',
      'private_key_jwt',
      'none',
    ]);
    expect(metadata.introspection_endpoint_auth_methods_supported).toEqual([
      'client_secret_basic',
      'client_secret_post',
      'private_key_jwt',
    ]);
    expect(metadata.revocation_endpoint_auth_methods_supported).toEqual([
      'client_secret_basic',
      'client_secret_post',
      'private_key_jwt',
    ]);
  });

  it('names the algorithms of private_key_jwt assertions: asymmetric ones only', () => {
    for (const algs of [
      metadata.token_endpoint_auth_signing_alg_values_supported,
      metadata.introspection_endpoint_auth_signing_alg_values_supported,
      metadata.revocation_endpoint_auth_signing_alg_values_supported,
    ]) {
      expect(algs).toEqual(['RS256', 'PS256', 'ES256']);
    }
  });

  it('is an OpenID Provider configuration: userinfo, ID token algorithm, subjects, prompts, no request objects', () => {
    expect(metadata).toMatchObject({
      userinfo_endpoint: 'https://auth.example.test/v1/oauth/userinfo',
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      prompt_values_supported: ['none', 'login', 'consent'],
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
      claims_parameter_supported: false,
    });
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining(['openid', 'profile', 'email', 'offline_access']),
    );
    expect(metadata.claims_supported).toEqual(
      expect.arrayContaining(['sub', 'auth_time', 'nonce', 'at_hash', 'sid', 'email', 'name']),
    );
  });
});
