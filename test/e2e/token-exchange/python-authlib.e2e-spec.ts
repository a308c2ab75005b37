import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { identityOf, signIn } from '../../support/internal-consent';
import { adminToken, discover, registerApp, type RegisteredApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { describeWithPythonAuthlib, runPython } from '../../support/python';
import { ACCESS_TOKEN_TYPE } from './exchange-client';

const ORDERS = 'https://orders.python-authlib.example';
const LEDGER = 'https://ledger.python-authlib.example';
const SCRIPT = join(__dirname, 'exchange.py');

/**
 * B, written in Python, exchanges its user's token with Authlib (exchange.py), unmodified: the
 * grant works for a client library that knows nothing of the platform. Its own apps and user on
 * the shared platform.
 */
describeWithPythonAuthlib('token exchange from Python with Authlib', () => {
  let platform: TestPlatform;
  let orders: RegisteredApp;
  let subjectToken: string;
  let userId: string;

  beforeAll(async () => {
    platform = sharedPlatform();
    const admin = await adminToken(await discover(platform), platform);
    await registerApp(platform, admin, { client_id: 'authlib-ledger', resource_uri: LEDGER });
    orders = await registerApp(platform, admin, {
      client_id: 'authlib-orders',
      resource_uri: ORDERS,
      token_exchange_audiences: [LEDGER],
    });
    const web = await registerApp(platform, admin, {
      client_id: 'authlib-web',
      app_type: 'web',
      declared_scopes: ['jobs.read', 'jobs.write'],
      redirect_uris: ['https://web.python-authlib.example/callback'],
    });
    const { tokens, user } = await signIn(platform, web, {
      identity: identityOf('python-authlib-ada', 'python-authlib', ['viewer']),
      scope: 'jobs.read jobs.write',
      resource: ORDERS,
    });
    subjectToken = tokens.access_token;
    userId = user.id;
  });

  const runExchange = async (authMethod: string, extra: Record<string, string>) => {
    const { code, stdout, stderr } = await runPython(SCRIPT, {
      TOKEN_URL: `${platform.baseUrl}/v1/oauth/token`,
      CLIENT_ID: orders.client_id,
      CLIENT_SECRET: orders.client_secret!,
      AUTH_METHOD: authMethod,
      SUBJECT_TOKEN: subjectToken,
      // The platform listens on plain http at 127.0.0.1 here; Authlib wants https otherwise.
      AUTHLIB_INSECURE_TRANSPORT: '1',
      ...extra,
    });
    if (stdout === '') throw new Error(`exchange.py printed nothing (exit ${code}): ${stderr}`);
    return { code, answer: JSON.parse(stdout) as Record<string, unknown> };
  };

  it('exchanges with client_secret_basic: an access token for the audience, naming B as the actor', async () => {
    const { code, answer } = await runExchange('client_secret_basic', {
      AUDIENCE: LEDGER,
      SCOPE: 'jobs.read',
    });
    expect(code).toBe(0);
    expect(answer).toMatchObject({
      issued_token_type: ACCESS_TOKEN_TYPE,
      token_type: 'Bearer',
      scope: 'jobs.read',
    });
    expect(decodeJwt(answer.access_token as string)).toMatchObject({
      sub: userId,
      aud: LEDGER,
      client_id: 'authlib-orders',
      act: { sub: 'authlib-orders', client_id: 'authlib-orders' },
    });
  });

  it('hands Authlib the refusal with client_secret_post: invalid_target for an unknown audience', async () => {
    const { code, answer } = await runExchange('client_secret_post', {
      AUDIENCE: 'https://unknown.python-authlib.example',
    });
    expect(code).toBe(1);
    expect(answer).toMatchObject({ error: 'invalid_target' });
  });
});
