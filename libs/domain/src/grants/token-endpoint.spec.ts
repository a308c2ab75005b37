import {
  createTestEngine,
  basicAuthorization,
  expectOAuthError,
  postCredentials,
} from '../testing/in-memory-stores';
import type { GrantType } from '../registry/application';
import type { GrantHandler, TokenRequest, TokenResponse } from './grant-handler';
import { TokenEndpoint } from './token-endpoint';

/** A stand-in for a grant proved by something other than a secret (PKCE verifier, refresh token). */
class RecordingCodeGrant implements GrantHandler {
  readonly allowsClientIdOnly = true;
  readonly requests: TokenRequest[] = [];

  constructor(readonly grantType: GrantType = 'authorization_code') {}

  async handle(request: TokenRequest): Promise<TokenResponse> {
    this.requests.push(request);
    return { access_token: 'from-code', token_type: 'Bearer', expires_in: 3600, scope: '' };
  }
}

async function setUp() {
  const engine = await createTestEngine();
  const worker = await engine.seed({ clientId: 'reports-worker', declaredScopes: ['jobs.read'] });
  const portal = await engine.seed({ clientId: 'web-portal', appType: 'web' });
  const dashboard = await engine.seed({ clientId: 'dashboard', appType: 'spa' });
  return { ...engine, worker, portal, dashboard };
}

describe(TokenEndpoint.name, () => {
  it('issues a token to a client authenticating with client_secret_post', async () => {
    const { tokenEndpoint, worker } = await setUp();
    await expect(
      tokenEndpoint.handle({ grant_type: 'client_credentials', ...postCredentials(worker) }, undefined),
    ).resolves.toMatchObject({
      token_type: 'Bearer',
    });
  });

  it('issues a token to a client authenticating with client_secret_basic', async () => {
    const { tokenEndpoint, worker } = await setUp();
    await expect(
      tokenEndpoint.handle(
        { grant_type: 'client_credentials' },
        basicAuthorization('reports-worker', worker.secret!),
      ),
    ).resolves.toMatchObject({ token_type: 'Bearer', scope: 'jobs.read' });
  });

  it('refuses a request without grant_type as invalid_request', async () => {
    const { tokenEndpoint, worker } = await setUp();
    await expectOAuthError(
      tokenEndpoint.handle({ ...postCredentials(worker) }, undefined),
      'invalid_request',
    );
  });

  it('refuses a grant type it has no handler for as unsupported_grant_type', async () => {
    const { tokenEndpoint, worker } = await setUp();
    await expectOAuthError(
      tokenEndpoint.handle({ grant_type: 'password', ...postCredentials(worker) }, undefined),
      'unsupported_grant_type',
    );
    await expectOAuthError(
      tokenEndpoint.handle(
        { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', ...postCredentials(worker) },
        undefined,
      ),
      'unsupported_grant_type',
    );
  });

  it('refuses client_credentials from a client presenting only its client_id as invalid_client', async () => {
    const { tokenEndpoint } = await setUp();
    await expectOAuthError(
      tokenEndpoint.handle({ grant_type: 'client_credentials', client_id: 'reports-worker' }, undefined),
      'invalid_client',
    );
  });

  it('refuses a wrong secret as invalid_client', async () => {
    const { tokenEndpoint } = await setUp();
    await expectOAuthError(
      tokenEndpoint.handle(
        { grant_type: 'client_credentials', client_id: 'reports-worker', client_secret: 'guess' },
        undefined,
      ),
      'invalid_client',
    );
  });

  it('refuses client_credentials for a web app as unauthorized_client', async () => {
    const { tokenEndpoint, portal } = await setUp();
    await expectOAuthError(
      tokenEndpoint.handle({ grant_type: 'client_credentials', ...postCredentials(portal) }, undefined),
      'unauthorized_client',
    );
  });

  it('refuses client_credentials for a spa, which has no secret, as invalid_client', async () => {
    const { tokenEndpoint } = await setUp();
    await expectOAuthError(
      tokenEndpoint.handle({ grant_type: 'client_credentials', client_id: 'dashboard' }, undefined),
      'invalid_client',
    );
  });

  it('hands a client_id-only client to a grant that allows it, with the request', async () => {
    const { authenticator } = await setUp();
    const codeGrant = new RecordingCodeGrant();
    const endpoint = new TokenEndpoint([codeGrant], authenticator);
    await expect(
      endpoint.handle({ grant_type: 'authorization_code', client_id: 'dashboard', code: 'c' }, undefined),
    ).resolves.toMatchObject({
      access_token: 'from-code',
    });
    expect(codeGrant.requests).toHaveLength(1);
    expect(codeGrant.requests[0]).toMatchObject({
      params: { code: 'c' },
      client: { authenticatedWithSecret: false, app: { clientId: 'dashboard' } },
    });
  });

  it.each(['authorization_code', 'refresh_token'] as const)(
    'refuses %s from a client holding a secret that presents only its client_id as invalid_client (RFC 6749 section 3.2.1)',
    async (grantType) => {
      const { authenticator } = await setUp();
      const grant = new RecordingCodeGrant(grantType);
      const endpoint = new TokenEndpoint([grant], authenticator);
      await expectOAuthError(
        endpoint.handle({ grant_type: grantType, client_id: 'web-portal', code: 'c' }, undefined),
        'invalid_client',
      );
      expect(grant.requests).toEqual([]);
    },
  );

  it('hands a client holding a secret to the code grant once it authenticated with it', async () => {
    const { authenticator, portal } = await setUp();
    const codeGrant = new RecordingCodeGrant();
    const endpoint = new TokenEndpoint([codeGrant], authenticator);
    await expect(
      endpoint.handle({ grant_type: 'authorization_code', ...postCredentials(portal), code: 'c' }, undefined),
    ).resolves.toMatchObject({ access_token: 'from-code' });
    expect(codeGrant.requests[0]).toMatchObject({ client: { authenticatedWithSecret: true } });
  });

  it('enforces the app_type table before any grant handler runs', async () => {
    const { authenticator, worker } = await setUp();
    const codeGrant = new RecordingCodeGrant();
    const endpoint = new TokenEndpoint([codeGrant], authenticator);
    await expectOAuthError(
      endpoint.handle({ grant_type: 'authorization_code', ...postCredentials(worker) }, undefined),
      'unauthorized_client',
    );
    expect(codeGrant.requests).toEqual([]);
  });
});
