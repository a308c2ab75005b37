import type { Application, AppType } from './application';

/** The loopback addresses a redirect URI may name with plain http (RFC 8252 sections 7.3 and 8.3). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);
const IPV4_OR_IPV6 = /^(\d+\.\d+\.\d+\.\d+|\[[0-9a-f:.]+\])$/;
/** The host as written: after `scheme://` (or `scheme:\\`), userinfo and port removed. */
const RAW_HOST = /^[a-z][a-z\d+.-]*:[/\\]*(?:[^/\\?#]*@)?(\[[^\]]*\]|[^/\\?#:]*)/i;

/**
 * Why a redirect URI cannot be registered for an app of this type, or null when it can (RFC 9700
 * section 2.1, RFC 8252, RFC 6749 section 3.1.2). `https`; plain `http` only on 127.0.0.1 or
 * [::1]; a private-use scheme in reverse-domain form for native (cli) apps; never a wildcard,
 * userinfo, fragment or `localhost`; and written as the WHATWG URL parser (a browser) writes it,
 * so the string matched exactly at authorize time is the address the browser goes to. The
 * reason never repeats the URI: its userinfo may hold a password.
 */
export function redirectUriProblem(uri: string, appType: AppType): string | null {
  if (uri.includes('*')) return 'has a wildcard (*): redirect URIs are matched exactly, register each one';
  const url = parsed(uri);
  if (!url) return 'is not an absolute URI';
  if (uri.includes('#')) return 'has a fragment (RFC 6749 section 3.1.2)';
  const rawHost = RAW_HOST.exec(uri);
  if (url.username || url.password || rawHost?.[0].includes('@')) {
    return 'has userinfo (user:password@): never part of a redirect URI';
  }
  const web = url.protocol === 'https:' || url.protocol === 'http:';
  if (web && (url.hostname === 'localhost' || url.hostname.endsWith('.localhost'))) {
    return 'names localhost: use 127.0.0.1 or [::1] (RFC 8252 section 8.3)';
  }
  if (IPV4_OR_IPV6.test(url.hostname) && rawHost?.[1].toLowerCase() !== url.hostname) {
    return `has a non-canonical IP literal: write it as ${url.hostname}`;
  }
  if (uri !== url.href) return `is not in canonical form: register it as ${url.href}`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') {
    return LOOPBACK_HOSTS.has(url.hostname)
      ? null
      : 'must use https: plain http only on 127.0.0.1 or [::1] (RFC 8252 section 7.3)';
  }
  if (!url.protocol.includes('.')) {
    return `uses an unsupported scheme ${url.protocol} (https, or a private-use scheme in reverse-domain form)`;
  }
  return appType === 'cli'
    ? null
    : `uses a private-use scheme, which is for native (cli) apps only (RFC 8252 section 7.1): a ${appType} app uses https`;
}

/** The problems of a list of redirect URIs, each named by its index (the URI may hold a password). */
export function redirectUriProblems(appType: AppType, uris: readonly string[]): string[] {
  return uris.flatMap((uri, index) => {
    const problem = redirectUriProblem(uri, appType);
    return problem === null ? [] : [`redirect_uris[${index}] ${problem}`];
  });
}

/**
 * The registered redirect URI a requested one matches, if any: exact string comparison (RFC 9700
 * section 2.1), except that a native (cli) app's loopback URI matches on any port, since the app
 * listens on whichever port the system gives it (RFC 8252 section 7.3). Only the port may
 * differ, and the requested URI must be in canonical form, so no parser can read it otherwise.
 */
export function registeredRedirectUri(
  app: Pick<Application, 'appType' | 'redirectUris'>,
  requested: string,
): string | undefined {
  if (app.redirectUris.includes(requested)) return requested;
  if (app.appType !== 'cli') return undefined;
  const portless = loopbackWithoutPort(requested);
  return portless === undefined
    ? undefined
    : app.redirectUris.find((registered) => loopbackWithoutPort(registered) === portless);
}

/** A canonical plain-http loopback URI with its port removed; undefined for anything else. */
function loopbackWithoutPort(uri: string): string | undefined {
  const url = parsed(uri);
  if (url?.href !== uri || url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  url.port = '';
  return url.href;
}

/** The WHATWG URL parser's reading, as a browser's; undefined when it is no absolute URL. */
function parsed(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

/**
 * The registered redirect URI with response parameters added to its query (RFC 6749 section
 * 4.1.2), form-encoded. Whatever query the URI was registered with is kept byte for byte.
 */
export function redirectUriWithParameters(uri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ).toString();
  const separator = !uri.includes('?') ? '?' : /[?&]$/.test(uri) ? '' : '&';
  return `${uri}${separator}${query}`;
}

/**
 * An authorization response (RFC 6749 section 4.1.2 and 4.1.2.1) at the client's redirect URI,
 * always naming the issuer (RFC 9207), so a client that talks to several authorization servers
 * can tell which one answered (mix-up attacks, RFC 9700 section 4.4).
 */
export function authorizationResponseUri(
  redirectUri: string,
  issuer: string,
  params: Record<string, string | undefined>,
): string {
  return redirectUriWithParameters(redirectUri, { ...params, iss: issuer });
}
