// Development identity provider: a real OpenID Provider (oidc-provider 8) with a few demo
// accounts, for `npm start` and the browser tests. Never for production: fixed demo password,
// keys and sessions in memory.
//
//   DEV_IDP_PORT           port to listen on (default 3001, on 127.0.0.1 and ::1)
//   DEV_IDP_ISSUER         its issuer (default http://localhost:<port>)
//   OIDC_CLIENT_ID         the backend's client id here (default platform-backend)
//   OIDC_CLIENT_SECRET     the backend's client secret here (required)
//   ISSUER                 the backend's address; the client's redirect URI is {ISSUER}/auth/oidc/callback
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Provider from 'oidc-provider';

export const DEMO_PASSWORD = 'demo';

/** The demo people: who they are and what the platform will make of them. */
export const ACCOUNTS = [
  { id: 'alice', email: 'alice@acme.example', name: 'Alice Admin', tenant: 'acme', roles: ['tenant_admin'] },
  { id: 'bob', email: 'bob@acme.example', name: 'Bob User', tenant: 'acme', roles: ['user'] },
  { id: 'carol', email: 'carol@globex.example', name: 'Carol Viewer', tenant: 'globex', roles: ['viewer'] },
  { id: 'root', email: 'root@platform.example', name: 'Root', tenant: 'platform', roles: ['global_admin'] },
];

const escape = (text) =>
  String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

function findByLogin(login) {
  const wanted = String(login ?? '')
    .trim()
    .toLowerCase();
  return ACCOUNTS.find((account) => account.email === wanted || account.id === wanted);
}

/** The provider, configured for one confidential first-party client: the platform's backend. */
export function createProvider({ issuer, clientId, clientSecret, redirectUri }) {
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  return new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        client_name: 'OAuth platform (development)',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...signingKey, kid: `dev-${randomUUID().slice(0, 8)}`, alg: 'RS256', use: 'sig' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    pkce: { required: () => true, methods: ['S256'] },
    scopes: ['openid', 'email', 'profile', 'platform'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
      platform: ['tenant', 'roles'],
    },
    // The platform reads the people's claims from the ID token.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    async findAccount(ctx, sub) {
      const account = ACCOUNTS.find((candidate) => candidate.id === sub);
      if (!account) return undefined;
      return {
        accountId: account.id,
        async claims() {
          const { email, name, tenant, roles } = account;
          return { sub: account.id, email, email_verified: true, name, tenant, roles };
        },
      };
    },
    // First party: every requested scope is granted without a consent screen of its own (the
    // platform shows its own consent to its clients).
    async loadExistingGrant(ctx) {
      const grantId =
        ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      const grant =
        (grantId && (await ctx.oidc.provider.Grant.find(grantId))) ||
        new ctx.oidc.provider.Grant({
          clientId: ctx.oidc.client.clientId,
          accountId: ctx.oidc.session.accountId,
        });
      grant.addOIDCScope([...ctx.oidc.requestParamOIDCScopes].join(' '));
      await grant.save();
      return grant;
    },
    interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
    renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = page(
        'Sign-in error',
        `<h1>Sign-in error</h1><p>${escape(out.error)}: ${escape(out.error_description ?? '')}</p>`,
      );
    },
  });
}

function page(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; line-height: 1.5">${body}</body></html>`;
}

function loginPage(uid, { login = '', error } = {}) {
  const rows = ACCOUNTS.map(
    (a) =>
      `<tr><td><code>${escape(a.email)}</code></td><td>${escape(a.tenant)}</td><td>${escape(a.roles.join(', '))}</td></tr>`,
  ).join('');
  return page(
    'Sign in (development identity provider)',
    `<h1>Sign in</h1>
<p>Development identity provider. Every demo account's password is <code>${DEMO_PASSWORD}</code>.</p>
${error ? `<p role="alert" style="color: #b00020">${escape(error)}</p>` : ''}
<form method="post" action="/interaction/${escape(uid)}/login">
<p><label for="login">Email</label><br><input id="login" name="login" type="text" autocomplete="username" value="${escape(login)}" required autofocus></p>
<p><label for="password">Password</label><br><input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><button type="submit">Sign in</button></p>
</form>
<form method="post" action="/interaction/${escape(uid)}/abort"><button type="submit">Cancel</button></form>
<table><thead><tr><th>Account</th><th>Tenant</th><th>Roles</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

async function readForm(req) {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 16_384) throw new Error('form too large');
  }
  return new URLSearchParams(body);
}

/** GET /interaction/:uid (login page), POST /interaction/:uid/login, POST /interaction/:uid/abort. */
async function interaction(provider, req, res, path) {
  const [, , uid, action] = path.split('/');
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) throw new Error('interaction mismatch');
  if (details.prompt.name === 'consent') {
    // Not expected (loadExistingGrant grants everything), but never leave anyone stuck here.
    const grant = new provider.Grant({
      clientId: details.params.client_id,
      accountId: details.session.accountId,
    });
    grant.addOIDCScope(String(details.params.scope ?? 'openid'));
    return provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  }
  if (req.method === 'GET' && action === undefined) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    return res.end(loginPage(uid));
  }
  if (req.method === 'POST' && action === 'abort') {
    return provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'The user cancelled the sign-in' },
      { mergeWithLastSubmission: false },
    );
  }
  if (req.method === 'POST' && action === 'login') {
    const form = await readForm(req);
    const account = findByLogin(form.get('login'));
    if (!account || form.get('password') !== DEMO_PASSWORD) {
      res.writeHead(401, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return res.end(
        loginPage(uid, { login: form.get('login') ?? '', error: 'Unknown account or wrong password.' }),
      );
    }
    return provider.interactionFinished(
      req,
      res,
      { login: { accountId: account.id } },
      { mergeWithLastSubmission: false },
    );
  }
  res.writeHead(404).end();
}

/** Starts the provider; resolves once it listens. */
export async function startDevIdentityProvider(env = process.env) {
  const port = Number(env.DEV_IDP_PORT ?? 3001);
  const issuer = (env.DEV_IDP_ISSUER ?? `http://localhost:${port}`).replace(/\/$/, '');
  const clientId = env.OIDC_CLIENT_ID ?? 'platform-backend';
  const clientSecret = env.OIDC_CLIENT_SECRET;
  if (!clientSecret) throw new Error('OIDC_CLIENT_SECRET is required (the secret the backend presents)');
  if (env.NODE_ENV === 'production')
    throw new Error('the development identity provider never runs in production');
  // The backend's ISSUER, with the same default as libs/config.
  const backend = (env.ISSUER ?? 'http://localhost:3000').replace(/\/$/, '');
  const redirectUri = `${backend}/auth/oidc/callback`;

  const provider = createProvider({ issuer, clientId, clientSecret, redirectUri });
  provider.on('server_error', (ctx, error) =>
    console.error(`dev-idp: server error: ${error.name}: ${error.message}`),
  );
  const handle = provider.callback();
  const handler = (req, res) => {
    const path = new URL(req.url, issuer).pathname;
    if (path === '/health')
      return res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    if (!path.startsWith('/interaction/')) return handle(req, res);
    interaction(provider, req, res, path).catch((error) => {
      console.error(`dev-idp: interaction failed: ${error.name}: ${error.message}`);
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        page(
          'Sign-in error',
          '<h1>Sign-in error</h1><p>This sign-in expired or is not valid. Start again from the application.</p>',
        ),
      );
    });
  };

  // Loopback only, both families, so `localhost` works whichever address it resolves to.
  const servers = [];
  for (const host of ['127.0.0.1', '::1']) {
    const server = createServer(handler);
    try {
      await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, resolve);
      });
      servers.push(server);
    } catch (error) {
      if (host === '127.0.0.1') throw error;
    }
  }
  return {
    issuer,
    clientId,
    redirectUri,
    close: () =>
      Promise.all(
        servers.map((server) => {
          const closed = new Promise((resolve) => server.close(resolve));
          server.closeAllConnections();
          return closed;
        }),
      ),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  startDevIdentityProvider()
    .then(({ issuer, clientId, redirectUri, close }) => {
      console.log(`dev-idp: OpenID Provider at ${issuer} (client ${clientId}, redirect ${redirectUri})`);
      for (const signal of ['SIGINT', 'SIGTERM'])
        process.once(signal, () => void close().then(() => process.exit(0)));
    })
    .catch((error) => {
      console.error(`dev-idp: failed to start: ${error.message}`);
      process.exit(1);
    });
}
