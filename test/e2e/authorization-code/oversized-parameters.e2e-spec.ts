import { AUTHORIZATION_PARAMETER_MAX_LENGTH } from '@platform/domain';
import { adminToken, discover, registerApp, type RegisteredApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

/**
 * Parameters longer than the platform takes are refused at the edge with RFC 6749's
 * `invalid_request`: back to a trusted client, or an error page. Never a 5xx (a 5,000-character
 * `state` used to reach the control plane and come back as 503).
 */
describe('oversized authorization request parameters', () => {
  let platform: TestPlatform;
  let app: RegisteredApp;
  const redirectUri = 'https://dashboard.example.test/callback';

  const authorize = (overrides: Record<string, string>) =>
    fetch(
      `${platform.baseUrl}/oauth/authorize?${new URLSearchParams({
        client_id: app.client_id,
        redirect_uri: redirectUri,
        response_type: 'code',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        state: 'xyz',
        ...overrides,
      })}`,
      { redirect: 'manual' },
    );

  beforeAll(async () => {
    platform = sharedPlatform();
    app = await registerApp(platform, await adminToken(await discover(platform), platform), {
      client_id: 'dashboard',
      app_type: 'spa',
      redirect_uris: [redirectUri],
    });
  });

  it.each(['state', 'scope', 'code_challenge', 'response_type', 'code_challenge_method'])(
    'sends the client invalid_request for an oversized %s, without echoing it',
    async (name) => {
      const response = await authorize({
        [name]: 'a'.repeat(AUTHORIZATION_PARAMETER_MAX_LENGTH[name as 'state'] + 1),
      });
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(location.origin + location.pathname).toBe(redirectUri);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('error_description')).toMatch(new RegExp(`^${name} is longer than`));
      expect(location.searchParams.get('state')).toBe(name === 'state' ? null : 'xyz');
    },
  );

  it.each(['client_id', 'redirect_uri'])('shows an error page for an oversized %s', async (name) => {
    const response = await authorize({
      [name]: 'a'.repeat(AUTHORIZATION_PARAMETER_MAX_LENGTH[name as 'state'] + 1),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('location')).toBeNull();
  });

  it('shows the error page, not a 5xx, when several parameters are oversized (a fuzz finding)', async () => {
    const response = await authorize({ client_id: 'x'.repeat(4_000), state: 'x'.repeat(9_000) });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('never answers 5xx to a flood of long states', async () => {
    const statuses = await Promise.all(
      [100, 2_000, 4_096, 4_097, 5_000, 20_000].map(
        async (length) => (await authorize({ state: 's'.repeat(length) })).status,
      ),
    );
    expect(statuses.every((status) => status < 500)).toBe(true);
  });
});
