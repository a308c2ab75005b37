// A resource server as users would write one without the platform: it verifies the platform's
// tokens locally with jose (createLocalJWKSet + jwtVerify), with no revocation at all. The
// benchmark's peer for the protected request at scale. Usage: node jose-resource-server.mjs <issuer>
import { createServer } from 'node:http';
import { createLocalJWKSet, jwtVerify } from 'jose';

const issuer = process.argv[2];
const keys = createLocalJWKSet(await (await fetch(`${issuer}/v1/jwks`)).json());

const server = createServer(async (request, response) => {
  const token = (request.headers.authorization ?? '').replace(/^Bearer /i, '');
  try {
    const { payload } = await jwtVerify(token, keys, { issuer, audience: issuer, typ: 'at+jwt' });
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sub: payload.sub }));
  } catch {
    response.writeHead(401).end();
  }
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
