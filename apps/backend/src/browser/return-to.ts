const PLACEHOLDER_ORIGIN = 'http://return-to.invalid';

/**
 * Longest accepted `return_to`. It travels sealed in the login cookie, which must stay under
 * the 4096 bytes browsers keep; an authorization request is far shorter in practice.
 */
export const MAX_RETURN_TO_LENGTH = 2048;

/**
 * `return_to` when it is a relative path on this server, else undefined: it must start with a
 * single `/`, hold no backslash, whitespace or control character (browsers read `/\host` as
 * `//host`), and resolve to the same origin. Anything else would make the login an open redirect.
 */
export function safeReturnTo(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_RETURN_TO_LENGTH)
    return undefined;
  if (!value.startsWith('/') || value.startsWith('//')) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\\\s\u0000-\u001f\u007f]/.test(value)) return undefined;
  let resolved: URL;
  try {
    resolved = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return undefined;
  }
  if (resolved.origin !== PLACEHOLDER_ORIGIN) return undefined;
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
