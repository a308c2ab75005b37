import type { OAuthErrorCode } from '../errors';
import {
  anAuthorizationRequest,
  createTestEngine,
  PKCE_CHALLENGE,
  type SeededApplication,
} from '../testing/in-memory-stores';
import {
  AuthorizationRequestError,
  AuthorizationRequestValidator,
  type AuthorizationRequestParams,
} from './authorization-request';

async function setUp() {
  const engine = await createTestEngine();
  const portal = await engine.seed({
    clientId: 'web-portal',
    appType: 'web',
    declaredScopes: ['jobs.*', 'files.read'],
    redirectUris: ['https://portal.example.com/callback', 'https://portal.example.com/cb?tenant=a'],
  });
  const worker = await engine.seed({ clientId: 'reports-worker' });
  const validator = new AuthorizationRequestValidator(engine.stores.applications);
  return { validator, portal, worker };
}

async function refusal(
  validator: AuthorizationRequestValidator,
  params: AuthorizationRequestParams,
): Promise<{ code: OAuthErrorCode; redirectable: boolean }> {
  const error = await validator.validate(params).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AuthorizationRequestError);
  const { code, redirectable } = error as AuthorizationRequestError;
  return { code, redirectable };
}

describe(AuthorizationRequestValidator.name, () => {
  it('accepts a request for a registered redirect URI with an S256 challenge', async () => {
    const { validator, portal } = await setUp();
    await expect(validator.validate(anAuthorizationRequest(portal, { scope: 'jobs.read' }))).resolves.toEqual(
      {
        client: portal.app,
        redirectUri: 'https://portal.example.com/callback',
        scopes: ['jobs.read'],
        codeChallenge: PKCE_CHALLENGE,
        state: 'xyz',
        oidc: { prompt: [] },
        nonce: undefined,
      },
    );
  });

  it('asks for every declared scope when the request names none', async () => {
    const { validator, portal } = await setUp();
    await expect(validator.validate(anAuthorizationRequest(portal))).resolves.toMatchObject({
      scopes: ['jobs.*', 'files.read'],
    });
    await expect(validator.validate(anAuthorizationRequest(portal, { scope: ' ' }))).resolves.toMatchObject({
      scopes: ['jobs.*', 'files.read'],
    });
  });

  it('accepts scopes a declared wildcard covers', async () => {
    const { validator, portal } = await setUp();
    await expect(
      validator.validate(anAuthorizationRequest(portal, { scope: 'jobs.read jobs.write files.read' })),
    ).resolves.toMatchObject({ scopes: ['jobs.read', 'jobs.write', 'files.read'] });
  });

  it('accepts a state that is absent', async () => {
    const { validator, portal } = await setUp();
    await expect(
      validator.validate(anAuthorizationRequest(portal, { state: undefined })),
    ).resolves.toMatchObject({
      state: undefined,
    });
  });

  it('matches a registered redirect URI with a query exactly', async () => {
    const { validator, portal } = await setUp();
    const redirect_uri = 'https://portal.example.com/cb?tenant=a';
    await expect(validator.validate(anAuthorizationRequest(portal, { redirect_uri }))).resolves.toMatchObject(
      {
        redirectUri: redirect_uri,
      },
    );
  });

  describe("a native (cli) app's loopback redirect URI (RFC 8252 section 7.3)", () => {
    const native = async () => {
      const engine = await createTestEngine();
      const app = await engine.seed({
        clientId: 'ops-cli',
        appType: 'cli',
        declaredScopes: ['jobs.read'],
        redirectUris: ['http://127.0.0.1/callback', 'http://[::1]:8080/callback'],
      });
      return { validator: new AuthorizationRequestValidator(engine.stores.applications), app };
    };

    it('matches on any port, and the code is bound to the URI as requested', async () => {
      const { validator, app } = await native();
      for (const redirect_uri of ['http://127.0.0.1:53123/callback', 'http://[::1]:49152/callback']) {
        await expect(
          validator.validate(anAuthorizationRequest(app, { redirect_uri })),
        ).resolves.toMatchObject({
          redirectUri: redirect_uri,
        });
      }
    });

    it('matches nothing else than the port', async () => {
      const { validator, app } = await native();
      for (const redirect_uri of ['http://127.0.0.1:53123/callback/x', 'http://127.1:53123/callback']) {
        await expect(refusal(validator, anAuthorizationRequest(app, { redirect_uri }))).resolves.toEqual({
          code: 'invalid_request',
          redirectable: false,
        });
      }
    });

    it("is exact for a web app's loopback URI", async () => {
      const engine = await createTestEngine();
      const app = await engine.seed({
        clientId: 'dev-portal',
        appType: 'web',
        declaredScopes: ['jobs.read'],
        redirectUris: ['http://127.0.0.1:3000/callback'],
      });
      const validator = new AuthorizationRequestValidator(engine.stores.applications);
      await expect(
        refusal(validator, anAuthorizationRequest(app, { redirect_uri: 'http://127.0.0.1:3001/callback' })),
      ).resolves.toEqual({ code: 'invalid_request', redirectable: false });
    });
  });

  it('refuses, without redirecting and naming the rule, a URI registered before the redirect URI rules', async () => {
    const engine = await createTestEngine();
    const app = await engine.seed({
      clientId: 'legacy-cli',
      appType: 'cli',
      declaredScopes: ['jobs.read'],
      redirectUris: ['http://localhost:8080/callback'],
    });
    const validator = new AuthorizationRequestValidator(engine.stores.applications);
    const error = await validator
      .validate(anAuthorizationRequest(app, { redirect_uri: 'http://localhost:8080/callback' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthorizationRequestError);
    expect(error).toMatchObject({
      code: 'invalid_request',
      redirectable: false,
      description: expect.stringMatching(
        /breaks the redirect URI rules: it names localhost: use 127\.0\.0\.1/,
      ),
    });
  });

  describe('refuses without redirecting (an error page) when', () => {
    it.each<[string, Partial<AuthorizationRequestParams>, OAuthErrorCode]>([
      ['client_id is missing', { client_id: undefined }, 'invalid_request'],
      ['the client is unknown', { client_id: 'nobody' }, 'invalid_client'],
      ['redirect_uri is missing', { redirect_uri: undefined }, 'invalid_request'],
      [
        'redirect_uri is not registered',
        { redirect_uri: 'https://evil.example/callback' },
        'invalid_request',
      ],
      [
        'redirect_uri only starts like a registered one',
        { redirect_uri: 'https://portal.example.com/callback/x' },
        'invalid_request',
      ],
      [
        'redirect_uri differs in case',
        { redirect_uri: 'https://PORTAL.example.com/callback' },
        'invalid_request',
      ],
      [
        'redirect_uri adds a query',
        { redirect_uri: 'https://portal.example.com/callback?x=1' },
        'invalid_request',
      ],
      [
        'redirect_uri drops the registered query',
        { redirect_uri: 'https://portal.example.com/cb' },
        'invalid_request',
      ],
      [
        'redirect_uri has a trailing slash',
        { redirect_uri: 'https://portal.example.com/callback/' },
        'invalid_request',
      ],
    ])('%s', async (_, overrides, code) => {
      const { validator, portal } = await setUp();
      await expect(refusal(validator, anAuthorizationRequest(portal, overrides))).resolves.toEqual({
        code,
        redirectable: false,
      });
    });

    it('even a bad response type or a missing challenge comes with an unregistered redirect URI', async () => {
      const { validator, portal } = await setUp();
      const params = anAuthorizationRequest(portal, {
        redirect_uri: 'https://evil.example/callback',
        response_type: 'token',
        code_challenge: undefined,
      });
      await expect(refusal(validator, params)).resolves.toEqual({
        code: 'invalid_request',
        redirectable: false,
      });
    });

    it('a service app asks, which has no redirect URI to send an error to', async () => {
      const { validator, worker } = await setUp();
      const params = anAuthorizationRequest(worker, { redirect_uri: 'https://worker.example/callback' });
      await expect(refusal(validator, params)).resolves.toEqual({
        code: 'unauthorized_client',
        redirectable: false,
      });
    });
  });

  describe('refuses with a redirect to the client when', () => {
    it.each<[string, Partial<AuthorizationRequestParams>, OAuthErrorCode]>([
      ['response_type is missing', { response_type: undefined }, 'invalid_request'],
      ['response_type is token (implicit)', { response_type: 'token' }, 'unsupported_response_type'],
      ['response_type is code id_token', { response_type: 'code id_token' }, 'unsupported_response_type'],
      [
        'code_challenge is missing (downgrade)',
        { code_challenge: undefined, code_challenge_method: undefined },
        'invalid_request',
      ],
      ['code_challenge is missing but a method is named', { code_challenge: undefined }, 'invalid_request'],
      [
        'code_challenge_method is missing (plain by default)',
        { code_challenge_method: undefined },
        'invalid_request',
      ],
      ['code_challenge_method is plain', { code_challenge_method: 'plain' }, 'invalid_request'],
      ['code_challenge_method is s256 in lower case', { code_challenge_method: 's256' }, 'invalid_request'],
      ['code_challenge is too short', { code_challenge: PKCE_CHALLENGE.slice(1) }, 'invalid_request'],
      ['code_challenge is too long', { code_challenge: `${PKCE_CHALLENGE}A` }, 'invalid_request'],
      [
        'code_challenge is padded base64',
        { code_challenge: `${PKCE_CHALLENGE.slice(1)}=` },
        'invalid_request',
      ],
      ['a scope is not declared', { scope: 'jobs.read secrets.read' }, 'invalid_scope'],
      ['a wildcard is broader than declared', { scope: 'files.*' }, 'invalid_scope'],
    ])('%s', async (_, overrides, code) => {
      const { validator, portal } = await setUp();
      await expect(refusal(validator, anAuthorizationRequest(portal, overrides))).resolves.toEqual({
        code,
        redirectable: true,
      });
    });
  });

  it('names the refused scopes', async () => {
    const { validator, portal } = await setUp();
    await expect(
      validator.validate(anAuthorizationRequest(portal, { scope: 'jobs.read secrets.read' })),
    ).rejects.toMatchObject({ description: expect.stringContaining('secrets.read') });
  });

  describe('a user-facing app registered before 1.0 with service-only scopes', () => {
    const legacy = async () => {
      const engine = await createTestEngine();
      const app = await engine.seed({
        clientId: 'legacy-portal',
        appType: 'web',
        declaredScopes: ['jobs.*', 'admin.*', 'tokens.introspect'],
        redirectUris: ['https://portal.example.com/callback'],
      });
      return { validator: new AuthorizationRequestValidator(engine.stores.applications), app };
    };

    it('asks for its declared scopes without the service-only ones', async () => {
      const { validator, app } = await legacy();
      await expect(
        validator.validate(anAuthorizationRequest(app, { scope: undefined })),
      ).resolves.toMatchObject({
        scopes: ['jobs.*'],
      });
    });

    it.each(['admin.*', 'tokens.introspect', 'jobs.work'])(
      'refuses a request naming %s as invalid_scope',
      async (scope) => {
        const { validator, app } = await legacy();
        await expect(
          refusal(validator, anAuthorizationRequest(app, { scope: `jobs.read ${scope}` })),
        ).resolves.toEqual({
          code: 'invalid_scope',
          redirectable: true,
        });
      },
    );
  });

  it('accepts spa and cli apps as it does web apps', async () => {
    const engine = await createTestEngine();
    const validator = new AuthorizationRequestValidator(engine.stores.applications);
    const apps: SeededApplication[] = [
      await engine.seed({ clientId: 'dashboard', appType: 'spa' }),
      await engine.seed({
        clientId: 'deploy-cli',
        appType: 'cli',
        redirectUris: ['http://127.0.0.1:53123/callback'],
      }),
    ];
    for (const app of apps) {
      await expect(validator.validate(anAuthorizationRequest(app))).resolves.toMatchObject({
        client: { clientId: app.app.clientId },
      });
    }
  });
});
