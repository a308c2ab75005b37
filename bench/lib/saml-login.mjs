import { grpcLoad } from './load.mjs';
import { rate, readAuthnRequest, registerIdentityProvider, samlIdp } from './saml.mjs';

/** Where each sign-in returns: a cheap page of the backend, so the redirect is all it costs. */
const RETURN_TO = '/health';
/** Distinct users signing in, in turn (each sign-in upserts its user and opens a session). */
const USERS = 500;
const SESSION_COOKIE = /^(?:__Host-)?session$/;

/** The `name=value` pairs of a response's Set-Cookie headers, as a browser sends them back. */
const cookiesOf = (response) => response.headers.getSetCookie().map((line) => line.split(';')[0]);

async function failure(step, response) {
  const location = response.headers.get('location');
  const body = (await response.text()).slice(0, 300);
  return new Error(
    `SAML sign-in, ${step} answered ${response.status}${location ? ` to ${location}` : ''}: ${body}`,
  );
}

/**
 * One SP-initiated sign-in as a browser and its IdP make it (docs/saml.md): GET the login (302 to
 * the IdP with the AuthnRequest, its ID sealed in a cookie), the IdP signs a Response to that
 * request, the browser posts it to the ACS with the cookie (302 to return_to, a session cookie).
 */
async function signIn(baseUrl, tenant, idp, nameId) {
  const login = await fetch(`${baseUrl}/saml/${tenant}/login?return_to=${encodeURIComponent(RETURN_TO)}`, {
    redirect: 'manual',
  });
  if (login.status !== 302) throw await failure('the login', login);
  await login.body?.cancel();
  const location = login.headers.get('location');
  const relayState = new URL(location).searchParams.get('RelayState');
  const fields = { SAMLResponse: idp.response(readAuthnRequest(location), nameId) };
  if (relayState !== null) fields.RelayState = relayState;
  const acs = await fetch(`${baseUrl}/saml/${tenant}/acs`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookiesOf(login).join('; ') },
    body: new URLSearchParams(fields),
  });
  const signedIn = cookiesOf(acs).some(
    (pair) => SESSION_COOKIE.test(pair.split('=')[0]) && !pair.endsWith('='),
  );
  if (acs.status !== 302 || acs.headers.get('location') !== RETURN_TO || !signedIn)
    throw await failure('the ACS', acs);
  await acs.body?.cancel();
}

/**
 * `saml-login`: complete SP-initiated SAML sign-ins per second (issue 41), `connections` of them
 * in flight, each two requests and the IdP's signature between them. The Response answers the
 * AuthnRequest's ID, so the harness signs it live, in this process, on the machine's cores: its
 * signing rate alone on one core is measured first and its share stated in the row.
 */
export async function samlLoginScenario(ctx) {
  const { platform, options } = ctx;
  const suffix = Date.now().toString(36);
  const tenant = `bench-saml-login-${suffix}`;
  const idp = samlIdp(`https://idp-login-${suffix}.bench.example/saml`);
  await registerIdentityProvider(platform, tenant, idp);

  let users = 0;
  const next = () => signIn(platform.baseUrl, tenant, idp, `user-${users++ % USERS}`);
  await next(); // it must pass, with its cause in the error if it does not

  const seconds = Math.min(options.duration, options.quick ? 1 : 3);
  ctx.progress(`the harness's IdP signing one Response, one core (${seconds} s)`);
  const sp = `${platform.baseUrl}/saml/${tenant}`;
  const request = { id: '_bench-request', acsUrl: `${sp}/acs`, spEntityId: `${sp}/metadata` };
  const signatures = await rate(seconds, () => idp.response(request, 'bench-user'));

  // grpcLoad's closed loop takes any `call(done)`: here `connections` sign-ins in flight.
  let firstFailure;
  const call = (done) =>
    next().then(
      () => done(),
      (error) => {
        firstFailure ??= error;
        done(error);
      },
    );
  const row = await ctx.measure('saml-login: GET /saml/{tenant}/login, sign, POST /saml/{tenant}/acs', (s) =>
    grpcLoad({ call, concurrency: options.connections }, s),
  );
  if (firstFailure) throw firstFailure;
  const signingShare = Math.round((row.rps / signatures) * 100);
  return [
    {
      key: 'saml-login',
      label: `SAML sign-ins, SP-initiated: login 302, the Response signed live by the harness (~${signingShare}% of one core), ACS 302 with a session`,
      connections: options.connections,
      ...row,
      unit: 'logins/s',
    },
    {
      key: 'saml-sign',
      label: 'The harness IdP signing one Response (xml-crypto, RSA-SHA256), 1 core, in process',
      rps: signatures,
      unit: 'ops/s',
    },
  ];
}
