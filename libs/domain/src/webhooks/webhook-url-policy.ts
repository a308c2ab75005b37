import * as ipaddr from 'ipaddr.js';
import { validationFailed } from '../errors';

/**
 * Where webhooks may be sent. In production (`allowPrivateNetworks` false) only `https` to
 * public unicast addresses: never loopback, link-local (cloud metadata), private, shared,
 * multicast or reserved ranges, so an admin token cannot turn the platform into a proxy into
 * its own network (SSRF). The check runs at registration on the URL and again at every
 * connection on the addresses DNS gives, so a name that later resolves inwards is refused too.
 */
export interface WebhookUrlPolicy {
  allowPrivateNetworks: boolean;
}

export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** Whether an IP address is one a production webhook may reach. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/** The URL parsed, or a validation error saying what is wrong with it. */
export function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy): URL {
  if (raw.length > WEBHOOK_URL_MAX_LENGTH) {
    throw validationFailed(`url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw validationFailed('url must be an absolute http or https URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw validationFailed('url must be an absolute http or https URL');
  }
  if (url.username !== '' || url.password !== '') throw validationFailed('url must not carry credentials');
  if (url.hash !== '') throw validationFailed('url must not have a fragment');
  if (policy.allowPrivateNetworks) return url;
  if (url.protocol !== 'https:') throw validationFailed('url must use https');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host) ? !isPublicAddress(host) : isInternalName(host)) {
    throw validationFailed('url must not point at a loopback, link-local or private address');
  }
  return url;
}

/** Names that only ever mean this machine or its network. */
function isInternalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return (
    !name.includes('.') ||
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name.endsWith('.local') ||
    name.endsWith('.internal')
  );
}
