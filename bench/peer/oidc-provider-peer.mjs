/**
 * The peer of the benchmark: node-oidc-provider configured for the same work as the platform
 * (client_credentials with client_secret_post, RS256 JWT access tokens of the RFC 9068
 * profile, introspection, revocation), in one process, its clients and keys in memory.
 *
 * Started by the harness (bench/lib/peer.mjs) with:
 *   PEER_PORT, PEER_CLIENT_ID, PEER_CLIENT_SECRET, PEER_OPAQUE_CLIENT_ID
 * Prints `ready <issuer>` on stdout once it listens.
 *
 * node-oidc-provider never stores its JWT access tokens, so it cannot introspect them (it
 * answers `{"active":false}` without looking). The second client, PEER_OPAQUE_CLIENT_ID, gets
 * opaque tokens, which the peer does introspect: that is the introspection the harness compares.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider from 'oidc-provider';

const required = (name) => {
  const value = process.env[name];
  if (!value) {
    console.error(`${name} is required`);
    process.exit(2);
  }
  return value;
};

const port = Number(required('PEER_PORT'));
const clientId = required('PEER_CLIENT_ID');
const clientSecret = required('PEER_CLIENT_SECRET');
const opaqueClientId = required('PEER_OPAQUE_CLIENT_ID');
const issuer = `http://127.0.0.1:${port}`;
/** The resource server the JWT access tokens are for (the platform uses its issuer). */
const resource = `${issuer}/api`;
const scope = 'jobs.read';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'peer-rs256', alg: 'RS256', use: 'sig' };

const client = (id) => ({
  client_id: id,
  client_secret: clientSecret,
  grant_types: ['client_credentials'],
  response_types: [],
  redirect_uris: [],
  token_endpoint_auth_method: 'client_secret_post',
  scope,
});

const provider = new Provider(issuer, {
  clients: [client(clientId), client(opaqueClientId)],
  jwks: { keys: [signingKey] },
  scopes: [scope],
  cookies: { keys: [randomBytes(32).toString('base64url')] },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    revocation: { enabled: true },
    resourceIndicators: {
      enabled: true,
      // client_credentials without a `resource` parameter still yields a JWT for the API.
      defaultResource: (ctx) => (ctx.oidc.client?.clientId === opaqueClientId ? undefined : resource),
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({
        scope,
        audience: resource,
        accessTokenTTL: 3600,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
  ttl: { ClientCredentials: 3600 },
});
provider.proxy = false;

const server = provider.listen(port, '127.0.0.1', () => {
  process.stdout.write(`ready ${issuer}\n`);
});

const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
