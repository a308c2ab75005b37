/**
 * The slice of the WHATWG `fetch` the SDK calls: always a string URL. The global `fetch` of
 * Node 20 and of browsers fits; so does a wrapper that counts or logs calls.
 */
export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

/**
 * The global `fetch`, looked up at call time and never detached from `globalThis` (browsers
 * throw "Illegal invocation" on a detached `fetch`).
 */
export const globalFetch: FetchLike = (url, init) => globalThis.fetch(url, init);

/** `https://host/base/` and `/v1/me` as `https://host/base/v1/me`. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
