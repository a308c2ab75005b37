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

/**
 * IPv6 ranges whose last 32 bits are an IPv4 address a connection reaches: IPv4-mapped and
 * IPv4-compatible (RFC 4291 2.5.5), in every spelling (`::ffff:127.0.0.1`, `::ffff:7f00:1`, `::127.0.0.1`).
 */
const IPV4_CARRIERS = [ipaddr.IPv6.parseCIDR('::ffff:0:0/96'), ipaddr.IPv6.parseCIDR('::/96')];

/** Whether an IP address is one a production webhook may reach. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return carriedAddress(ipaddr.parse(address)).range() === 'unicast';
}

/** An IPv6 address that carries an IPv4 one is judged as that IPv4 address (`::1` as 0.0.0.1: refused too). */
function carriedAddress(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (address.kind() === 'ipv4') return address;
  const v6 = address as ipaddr.IPv6;
  return IPV4_CARRIERS.some((range) => v6.match(range))
    ? ipaddr.fromByteArray(v6.toByteArray().slice(12))
    : v6;
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
