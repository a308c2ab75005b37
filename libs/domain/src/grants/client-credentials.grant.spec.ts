import { decodeJwt } from 'jose';
import { OAuthError } from '../errors';
import { createTestEngine, expectOAuthError, postCredentials, TEST_START } from '../testing/in-memory-stores';
import { ClientCredentialsGrant } from './client-credentials.grant';

async function setUp(declaredScopes: string[]) {
  const engine = await createTestEngine();
  const worker = await engine.seed({ clientId: 'reports-worker', declaredScopes });
  const request = (scope?: string) =>
    engine.tokenEndpoint.handle(
      { grant_type: 'client_credentials', ...postCredentials(worker), ...(scope !== undefined && { scope }) },
      undefined,
    );
  return { ...engine, worker, request };
}

describe(ClientCredentialsGrant.name, () => {
  it('grants every declared scope when no scope is requested', async () => {
    const { request } = await setUp(['jobs.read', 'files.read']);
    const response = await request();
    expect(response.scope).toBe('jobs.read files.read');
    expect(decodeJwt(response.access_token).scope).toBe('jobs.read files.read');
  });

  it('grants exactly the requested scopes when they are declared', async () => {
    const { request } = await setUp(['jobs.read', 'files.read']);
    await expect(request('files.read')).resolves.toMatchObject({ scope: 'files.read' });
  });

  it('grants actions a declared wildcard covers, and the wildcard itself', async () => {
    const { request } = await setUp(['jobs.*']);
    await expect(request('jobs.read jobs.write')).resolves.toMatchObject({ scope: 'jobs.read jobs.write' });
    await expect(request('jobs.*')).resolves.toMatchObject({ scope: 'jobs.*' });
  });

  it('refuses a scope the app did not declare', async () => {
    const { request } = await setUp(['jobs.read']);
    await expectOAuthError(request('jobs.read secrets.read'), 'invalid_scope');
  });

  it('refuses a wildcard broader than the declared scopes', async () => {
    const { request } = await setUp(['jobs.read']);
    await expectOAuthError(request('jobs.*'), 'invalid_scope');
  });

  it('names the refused scopes in the description', async () => {
    const { request } = await setUp(['jobs.*']);
    const error = await request('jobs.read jobsx.read').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).description).toContain('jobsx.read');
    expect((error as OAuthError).description).not.toContain('jobs.read ');
  });

  it('answers the token response of the spec, with no refresh_token', async () => {
    const { request } = await setUp(['jobs.read']);
    const response = await request();
    expect(response).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'jobs.read',
    });
    expect(response).not.toHaveProperty('refresh_token');
  });

  it('issues a token acting as the app itself', async () => {
    const { request, accessTokens } = await setUp(['jobs.read']);
    const { access_token } = await request();
    await expect(accessTokens.verify(access_token)).resolves.toMatchObject({
      sub: 'reports-worker',
      client_id: 'reports-worker',
      iat: TEST_START.getTime() / 1000,
    });
  });

  it('records a token.issued event', async () => {
    const { request, stores } = await setUp(['jobs.read']);
    const { access_token } = await request();
    expect(stores.tokenEvents.all()).toEqual([
      {
        id: 1,
        type: 'token.issued',
        clientId: 'reports-worker',
        subject: 'reports-worker',
        jti: decodeJwt(access_token).jti,
        grantId: null,
        occurredAt: TEST_START,
      },
    ]);
  });

  it('records no event for a refused request', async () => {
    const { request, stores } = await setUp(['jobs.read']);
    await expectOAuthError(request('files.write'), 'invalid_scope');
    expect(stores.tokenEvents.all()).toEqual([]);
  });

  it('answers the token only once its event is stored', async () => {
    const { request, stores } = await setUp(['jobs.read']);
    let store!: () => void;
    const append = jest
      .spyOn(stores.tokenEvents, 'appendTokenEvents')
      .mockReturnValue(new Promise<void>((resolve) => (store = resolve)));
    let answered = false;
    const response = request().then((answer) => ((answered = true), answer));
    // Long enough for the signature, which runs meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answered).toBe(false);
    store();
    const { access_token } = await response;
    expect(append).toHaveBeenCalledWith([expect.objectContaining({ jti: decodeJwt(access_token).jti })]);
  });

  it('answers no token when its event cannot be stored', async () => {
    const { request, stores } = await setUp(['jobs.read']);
    jest.spyOn(stores.tokenEvents, 'appendTokenEvents').mockRejectedValue(new Error('disk I/O error'));
    await expect(request()).rejects.toThrow('disk I/O error');
  });
});
