import { isIPv4, isIPv6 } from 'node:net';
import { ConfigError } from '@platform/config';

/** Refuses a non-loopback gRPC address unless explicitly allowed (SIDECAR_ALLOW_NON_LOOPBACK=true). */
export function assertLoopbackBinding(config: { grpcAddress: string; allowNonLoopback: boolean }): void {
  if (config.allowNonLoopback || isLoopbackAddress(config.grpcAddress)) return;
  throw new ConfigError(
    `refusing to bind the sidecar to ${config.grpcAddress}: not a loopback address (set SIDECAR_ALLOW_NON_LOOPBACK=true to allow)`,
  );
}

/**
 * Whether a gRPC bind address (`host:port`, `[v6]:port` or `unix:<path>`) stays on this machine:
 * `localhost`, 127.0.0.0/8, `::1` (also IPv4-mapped), or a Unix socket.
 */
export function isLoopbackAddress(address: string): boolean {
  if (address.startsWith('unix:')) return true;
  const host = hostOf(address);
  if (host === undefined) return false;
  if (host.toLowerCase() === 'localhost') return true;
  if (isIPv4(host)) return host.startsWith('127.');
  if (isIPv6(host)) {
    const lower = host.toLowerCase();
    if (lower === '::1' || lower === '0:0:0:0:0:0:0:1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    return mapped !== null && mapped[1].startsWith('127.');
  }
  return false;
}

function hostOf(address: string): string | undefined {
  const target = address.replace(/^dns:(\/\/[^/]*\/)?/, '');
  if (target.startsWith('[')) {
    const end = target.indexOf(']');
    return end > 0 ? target.slice(1, end) : undefined;
  }
  const colon = target.lastIndexOf(':');
  const host = colon >= 0 ? target.slice(0, colon) : target;
  // A bare IPv6 address without brackets has more than one colon and cannot carry a port.
  return host.includes(':') ? undefined : host;
}
