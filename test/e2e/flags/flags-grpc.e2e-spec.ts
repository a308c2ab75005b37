import * as grpc from '@grpc/grpc-js';
import { createFlagServiceClient, type EvaluateFlagResult, type FlagServiceClient } from '@platform/grpc';
import { OpenFeature } from '@openfeature/server-sdk';
import { PlatformFlagProvider } from '@platform/sdk';
import { unaryCall as call } from '../../support/grpc';
import { identityOf, signIn } from '../../support/internal-consent';
import { adminToken, clientCredentialsToken, discover, registerApp } from '../../support/oauth';
import { startExtraSidecar, startPlatform, type TestPlatform } from '../../support/platform';

const FLAGS = {
  flags: {
    'new-checkout': {
      state: 'ENABLED',
      variants: { on: true, off: false },
      defaultVariant: 'off',
      targeting: {
        if: [
          { in: ['tenant_admin', { var: 'roles' }] },
          'on',
          {
            fractional: [
              ['on', 50],
              ['off', 50],
            ],
          },
        ],
      },
    },
    'banner-text': {
      state: 'ENABLED',
      variants: { legacy: 'Welcome', modern: 'Welcome back', staff: 'Hello, colleague' },
      defaultVariant: 'legacy',
      targeting: {
        if: [
          { starts_with: [{ var: 'email' }, 'staff.'] },
          'staff',
          { if: [{ sem_ver: [{ var: 'version' }, '>=', '2.0.0'] }, 'modern', null] },
        ],
      },
    },
    'page-size': { state: 'ENABLED', variants: { small: 10, large: 50 }, defaultVariant: 'large' },
    theme: {
      state: 'ENABLED',
      variants: { dark: { background: '#000', accent: 'teal' } },
      defaultVariant: 'dark',
    },
    'retired-feature': { state: 'DISABLED', variants: { on: true, off: false }, defaultVariant: 'on' },
  },
};

/**
 * FlagService over gRPC against the real sidecar: flagd definitions set over REST, evaluated by
 * flagd-core with the token's claims as context; a change reaches a second sidecar within a
 * second, and a restarted sidecar serves the definitions at once.
 */
describe('sidecar gRPC: FlagService', () => {
  let platform: TestPlatform;
  let second: { address: string; stop(): Promise<void> };
  let flags: FlagServiceClient;
  let otherFlags: FlagServiceClient;
  let admin: string;
  let tenantAdmin: string;
  let member: string;
  let globexUser: string;
  let service: string;

  const put = (tenant: string, body: unknown) =>
    fetch(`${platform.baseUrl}/api/v1/tenants/${tenant}/flags`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    platform = await startPlatform();
    second = await startExtraSidecar(platform);
    const as = await discover(platform);
    admin = await adminToken(as, platform);
    const portal = await registerApp(platform, admin, {
      client_id: 'shop',
      app_type: 'web',
      declared_scopes: ['flags.read'],
      redirect_uris: ['https://shop.example.test/callback'],
    });
    const user = async (subject: string, tenant: string, roles: string[]) =>
      (await signIn(platform, portal, { identity: identityOf(subject, tenant, roles) })).tokens.access_token;
    tenantAdmin = await user('root', 'acme', ['tenant_admin']);
    member = await user('mia', 'acme', ['user']);
    globexUser = await user('gus', 'globex', ['user']);
    const worker = await registerApp(platform, admin, {
      client_id: 'shop-worker',
      declared_scopes: ['flags.read'],
    });
    service = (
      await clientCredentialsToken(as, { clientId: worker.client_id, clientSecret: worker.client_secret! })
    ).access_token;
    expect((await put('acme', FLAGS)).status).toBe(200);
    flags = createFlagServiceClient(platform.sidecarAddress);
    otherFlags = createFlagServiceClient(second.address);
    await until(
      flags,
      { token: member, flag_key: 'page-size', type: 'number', default_value: { number_value: 0 } },
      (a) => a.reason !== 'ERROR',
    );
  });
  afterAll(async () => {
    flags?.close();
    otherFlags?.close();
    await second?.stop();
    await platform?.stop();
  });

  const evaluate = (client: FlagServiceClient, request: Parameters<FlagServiceClient['EvaluateFlag']>[0]) =>
    call<EvaluateFlagResult>((metadata, options, done) =>
      client.EvaluateFlag(request, metadata, options, done),
    );

  async function until(
    client: FlagServiceClient,
    request: Parameters<FlagServiceClient['EvaluateFlag']>[0],
    accept: (answer: EvaluateFlagResult) => boolean,
  ): Promise<number> {
    const started = Date.now();
    for (;;) {
      const { error, response } = await evaluate(client, request);
      if (!error && accept(response)) return Date.now() - started;
      if (Date.now() - started > 5000)
        throw new Error(`not there after 5 s: ${error?.message ?? JSON.stringify(response)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  const boolean = (token: string, flag = 'new-checkout') =>
    evaluate(flags, { token, flag_key: flag, type: 'boolean', default_value: { bool_value: false } });

  it('targets on the token’s roles, and splits the others stably by their subject', async () => {
    expect((await boolean(tenantAdmin)).response).toMatchObject({
      value: { bool_value: true },
      variant: 'on',
      reason: 'TARGETING_MATCH',
      error_code: '',
    });
    const split = await boolean(member);
    expect(split.response.reason).toBe('TARGETING_MATCH');
    expect(['on', 'off']).toContain(split.response.variant);
    expect((await boolean(member)).response.variant).toBe(split.response.variant);
  });

  it('evaluates string, number and object flags, with the caller’s attributes in the context', async () => {
    const banner = (context: object) =>
      evaluate(flags, {
        token: member,
        flag_key: 'banner-text',
        type: 'string',
        default_value: { string_value: 'x' },
        context_json: JSON.stringify(context),
      });
    expect((await banner({ email: 'staff.mia@acme.example', version: '1.0.0' })).response).toMatchObject({
      value: { string_value: 'Hello, colleague' },
      variant: 'staff',
    });
    expect((await banner({ email: 'mia@acme.example', version: '2.3.1' })).response.variant).toBe('modern');
    expect((await banner({ email: 'mia@acme.example', version: '1.9.0' })).response).toMatchObject({
      value: { string_value: 'Welcome' },
      reason: 'DEFAULT',
    });
    const size = await evaluate(flags, {
      token: service,
      tenant: 'acme',
      flag_key: 'page-size',
      type: 'number',
      default_value: { number_value: 1 },
    });
    expect(size.response).toMatchObject({ value: { number_value: 50 }, reason: 'STATIC' });
    const theme = await evaluate(flags, {
      token: member,
      flag_key: 'theme',
      type: 'object',
      default_value: { object_json: '{}' },
    });
    expect(JSON.parse(theme.response.value!.object_json!)).toEqual({ background: '#000', accent: 'teal' });
  });

  it('answers the default with OpenFeature’s reason and error code when it cannot evaluate', async () => {
    expect((await boolean(member, 'no-such-flag')).response).toMatchObject({
      value: { bool_value: false },
      reason: 'ERROR',
      error_code: 'FLAG_NOT_FOUND',
    });
    const mismatch = await evaluate(flags, {
      token: member,
      flag_key: 'page-size',
      type: 'string',
      default_value: { string_value: 'd' },
    });
    expect(mismatch.response).toMatchObject({
      value: { string_value: 'd' },
      reason: 'ERROR',
      error_code: 'TYPE_MISMATCH',
    });
    expect((await boolean(member, 'retired-feature')).response).toMatchObject({
      value: { bool_value: false },
      reason: 'DISABLED',
    });
    // Another tenant's flags do not exist for a user of globex.
    expect((await boolean(globexUser)).response).toMatchObject({
      reason: 'ERROR',
      error_code: 'FLAG_NOT_FOUND',
    });
  });

  it.each([
    [
      'no flag key',
      { flag_key: '', type: 'boolean', default_value: { bool_value: false } },
      grpc.status.INVALID_ARGUMENT,
    ],
    [
      'an unknown type',
      { flag_key: 'theme', type: 'date', default_value: { bool_value: false } },
      grpc.status.INVALID_ARGUMENT,
    ],
    [
      'a default of another type',
      { flag_key: 'theme', type: 'boolean', default_value: { string_value: 'x' } },
      grpc.status.INVALID_ARGUMENT,
    ],
    [
      'a context that is not a JSON object',
      { flag_key: 'theme', type: 'boolean', default_value: { bool_value: false }, context_json: '[1]' },
      grpc.status.INVALID_ARGUMENT,
    ],
  ])('refuses %s: INVALID_ARGUMENT', async (_, request, code) => {
    expect((await evaluate(flags, { token: member, ...request })).error?.code).toBe(code);
  });

  it('refuses an empty token, an invalid one, and a user naming another tenant', async () => {
    const request = { flag_key: 'theme', type: 'boolean', default_value: { bool_value: false } };
    expect((await evaluate(flags, { ...request, token: '' })).error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect((await evaluate(flags, { ...request, token: 'x.y.z' })).error?.code).toBe(
      grpc.status.UNAUTHENTICATED,
    );
    expect((await evaluate(flags, { ...request, token: globexUser, tenant: 'acme' })).error?.code).toBe(
      grpc.status.PERMISSION_DENIED,
    );
  });

  it('serves the OpenFeature server SDK through the SDK’s provider', async () => {
    const provider = new PlatformFlagProvider({
      sidecarAddress: platform.sidecarAddress,
      tokens: { getToken: async () => tenantAdmin },
    });
    await OpenFeature.setProviderAndWait('platform', provider);
    const client = OpenFeature.getClient('platform');
    try {
      expect(await client.getBooleanDetails('new-checkout', false)).toMatchObject({
        value: true,
        variant: 'on',
        reason: 'TARGETING_MATCH',
      });
      expect(
        await client.getStringValue('banner-text', 'x', {
          email: 'staff.root@acme.example',
          version: '1.0.0',
        }),
      ).toBe('Hello, colleague');
      expect(await client.getObjectValue('theme', {})).toEqual({ background: '#000', accent: 'teal' });
      expect(await client.getBooleanDetails('no-such-flag', true)).toMatchObject({
        value: true,
        reason: 'ERROR',
        errorCode: 'FLAG_NOT_FOUND',
      });
    } finally {
      await OpenFeature.close();
    }
  });

  it('refuses definitions flagd’s schema refuses, saying where', async () => {
    const response = await put('acme', {
      flags: { broken: { state: 'ON', variants: { a: true }, defaultVariant: 'a' } },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toMatch(
      /^not a valid flagd flag definition: \/flags\/broken\/state must be equal to one of the allowed values/,
    );
  });

  it('reaches a second sidecar within a second of a change', async () => {
    const request = {
      token: member,
      flag_key: 'page-size',
      type: 'number',
      default_value: { number_value: 0 },
    };
    await until(otherFlags, request, (a) => a.value?.number_value === 50);
    const changed = Date.now();
    const next = structuredClone(FLAGS);
    next.flags['page-size'].defaultVariant = 'small';
    expect((await put('acme', next)).status).toBe(200);
    await until(otherFlags, request, (a) => a.value?.number_value === 10);
    expect(Date.now() - changed).toBeLessThan(1000);
  });

  it('serves the definitions at once after a sidecar is killed (kill -9) and restarted', async () => {
    await platform.killProcess('sidecar');
    await platform.restartProcess('sidecar');
    flags.close();
    flags = createFlagServiceClient(platform.sidecarAddress);
    const { error, response } = await evaluate(flags, {
      token: member,
      flag_key: 'page-size',
      type: 'number',
      default_value: { number_value: 0 },
    });
    expect(error).toBeNull();
    expect(response.value?.number_value).toBe(10);
  });
});
