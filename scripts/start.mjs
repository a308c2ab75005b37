// `npm start`: the whole platform on the embedded default (SQLite under ./data).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import launcher from './platform-launcher.js';

const dataDir = resolve(process.env.DATA_DIR ?? './data');
const env = { DATA_DIR: dataDir };
// Outside production, without an identity provider of your own, the development one starts too.
const identityProvider = !process.env.OIDC_ISSUER && process.env.NODE_ENV !== 'production';

let platform;
platform = await launcher
  .launchPlatform({
    env,
    identityProvider,
    onExit: (name, code, signal) => {
      console.error(`${name} stopped (${signal ?? `exit code ${code}`}); stopping the platform`);
      void platform?.stop().then(() => process.exit(1));
    },
  })
  .catch((error) => {
    console.error(`the platform did not start: ${error.message}`);
    process.exit(1);
  });

const issuer = process.env.ISSUER ?? `http://localhost:${process.env.BACKEND_PORT ?? 3000}`;
const credentials = join(dataDir, 'admin-credentials.json');
let signIn = `Sign-in: ${process.env.OIDC_ISSUER ?? 'no identity provider (set OIDC_ISSUER)'}`;
if (platform.identityProvider) {
  // Imported only here: oidc-provider is a development dependency.
  const { ACCOUNTS, DEMO_PASSWORD } = await import('./dev-idp.mjs');
  signIn = `Sign-in: development identity provider at ${platform.identityProvider.issuer}
    accounts ${ACCOUNTS.map((account) => account.email).join(', ')}; password "${DEMO_PASSWORD}"`;
}
console.log(`
  Platform ready at ${issuer}   (health: ${issuer}/health)
  Admin credentials: ${existsSync(credentials) ? credentials : 'ADMIN_CLIENT_ID / ADMIN_CLIENT_SECRET from your environment'}
  ${signIn}
  Quick start: README.md, section "Quick start"
  Stop with Ctrl+C.
`);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    void platform.stop().then(() => process.exit(0));
  });
}
