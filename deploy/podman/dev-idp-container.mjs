// The project's development identity provider (scripts/dev-idp.mjs) as the compose file's `dex`
// service (docker-compose.dev-idp.yml). dev-idp listens on loopback only; a container's published
// port and its neighbours (the control plane fetches the keys at http://backend:5556) reach it
// through the namespace's other addresses, so a plain TCP relay on every address's port 5556
// passes them to dev-idp on 127.0.0.1:5558. Its issuer stays http://localhost:5556. Arguments (the
// Dex command line that the compose file gives `dex`) are ignored. Never for production.
import { connect, createServer } from 'node:net';
import { startDevIdentityProvider } from './dev-idp.mjs';

const PUBLIC_PORT = Number(process.env.DEV_IDP_PUBLIC_PORT ?? 5556);
const INNER_PORT = PUBLIC_PORT + 2;

const idp = await startDevIdentityProvider({
  ...process.env,
  DEV_IDP_PORT: String(INNER_PORT),
  DEV_IDP_ISSUER: process.env.DEV_IDP_ISSUER ?? `http://localhost:${PUBLIC_PORT}`,
});
const relay = createServer((client) => {
  const upstream = connect(INNER_PORT, '127.0.0.1');
  client.pipe(upstream).pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
});
// `::` takes IPv4 too where the namespace has IPv6; 0.0.0.0 where it has not.
await new Promise((resolve, reject) => {
  relay.once('error', (error) => {
    if (error.code !== 'EAFNOSUPPORT' && error.code !== 'EADDRNOTAVAIL') return reject(error);
    relay.once('error', reject);
    relay.listen(PUBLIC_PORT, '0.0.0.0', resolve);
  });
  relay.listen(PUBLIC_PORT, '::', resolve);
});
process.stdout.write(
  `dev-idp: OpenID Provider ${idp.issuer} (client ${idp.clientId}) on port ${PUBLIC_PORT}\n`,
);
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    relay.close();
    void idp.close().then(() => process.exit(0));
  });
