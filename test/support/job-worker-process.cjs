// A worker in a process of its own (for kill -9): the SDK's JobWorker, running jobs whose payload
// says how long to take. Configured by the environment; says "ready" on stdout once started.
const { JobWorker, PlatformClient, ServiceTokenSource } = require('@platform/sdk');

const { BASE_URL, CLIENT_ID, CLIENT_SECRET, TYPES, LEASE_SECONDS } = process.env;
const tokens = new ServiceTokenSource({
  baseUrl: BASE_URL,
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
});
const worker = new JobWorker(new PlatformClient({ baseUrl: BASE_URL, tokens }), {
  types: TYPES.split(','),
  leaseSeconds: Number(LEASE_SECONDS ?? 30),
  handler: async (payload, context) => {
    await context.log(`started by ${process.pid}`);
    await new Promise((resolve) => setTimeout(resolve, payload.ms));
    return { by: process.pid };
  },
});
worker.start();
process.stdout.write('ready\n');
process.on('SIGTERM', () => worker.stop().then(() => process.exit(0)));
