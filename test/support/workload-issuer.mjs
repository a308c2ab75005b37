// A workload token issuer for the federation e2e specs: a real OpenID Provider (oidc-provider 8)
// whose client_credentials grant mints JWT access tokens shaped as a workload's own token (a
// Kubernetes projected service-account token, a CI job's OIDC token): each workload is a client
// whose client_id is the token's `sub`, its extra claims added by `extraTokenClaims`, its `aud`
// the requested `resource`. Started as a child process (oidc-provider ships ESM only); prints
// `{"issuer": ...}` once listening.
//
//   argv[2]: JSON {"workloads": [{"id", "secret", "claims", "ttl"}], "audience"}
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const { workloads, audience } = JSON.parse(process.argv[2]);
const byId = new Map(workloads.map((workload) => [workload.id, workload]));

const server = createServer();
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    clients: workloads.map(({ id, secret }) => ({
      client_id: id,
      client_secret: secret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    jwks: { keys: [{ ...key, kid: `workload-${randomUUID().slice(0, 8)}`, alg: 'RS256', use: 'sig' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (ctx, resource, client) => ({
          audience: resource,
          scope: '',
          accessTokenFormat: 'jwt',
          accessTokenTTL: byId.get(client.clientId)?.ttl ?? 3600,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    // The workload's own claims: the namespace and service account, the repository and ref.
    extraTokenClaims: (ctx, token) => {
      const now = Math.floor(Date.now() / 1000);
      return { nbf: now, ...byId.get(token.clientId)?.claims };
    },
  });
  provider.on('server_error', (ctx, error) => console.error(error));
  server.on('request', provider.callback());
  console.log(JSON.stringify({ issuer }));
});
