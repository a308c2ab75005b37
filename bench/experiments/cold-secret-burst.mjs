#!/usr/bin/env node
/**
 * How long N concurrent first token requests of a newly registered client take: every request
 * that arrives before the first argon2 verification of its secret has finished runs argon2 too
 * (VerifiedSecretCache does not share a verification in flight). See docs/performance.md.
 *
 *   npm run build && node bench/experiments/cold-secret-burst.mjs [--sizes 1,8,64]
 */
import { parseArgs } from 'node:util';
import { form, FORM, registerServiceApp } from '../lib/oauth.mjs';
import { startPlatform } from '../lib/platform.mjs';
import { cleanup, installSignalHandlers } from '../lib/processes.mjs';

installSignalHandlers();
const { values } = parseArgs({ options: { sizes: { type: 'string', default: '1,8,64' } } });

try {
  const platform = await startPlatform();
  for (const size of values.sizes.split(',').map(Number)) {
    const app = await registerServiceApp(platform, `burst-${size}-${Date.now().toString(36)}`);
    const body = form({
      grant_type: 'client_credentials',
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: size }, () =>
        fetch(`${platform.baseUrl}/v1/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': FORM },
          body,
        }).then((response) => response.status),
      ),
    );
    console.log(
      `${size} concurrent first requests of a new client: ${Math.round(performance.now() - started)} ms ` +
        `(statuses ${[...new Set(statuses)].join(', ')})`,
    );
  }
} finally {
  await cleanup();
}
process.exit(0);
