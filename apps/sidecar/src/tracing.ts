import { startTracing } from '@platform/telemetry';

// Imported first by main.ts: the instrumentations must be in place before grpc-js, undici and
// pg are loaded.
startTracing('platform-sidecar');
