/**
 * Just enough of a browser's cookie store for plain-fetch tests: cookies by host (ports share
 * them, as in browsers), Max-Age=0 deletes, nothing else (paths are all `/` here).
 */
export class CookieJar {
  private readonly byHost = new Map<string, Map<string, string>>();

  /** Keeps the cookies a response sets. */
  store(url: string | URL, response: Response): void {
    const host = new URL(url).hostname;
    const cookies = this.byHost.get(host) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const deleted = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (deleted) cookies.delete(name);
      else cookies.set(name, value);
    }
    this.byHost.set(host, cookies);
  }

  get(url: string | URL, name: string): string | undefined {
    return this.byHost.get(new URL(url).hostname)?.get(name);
  }

  set(url: string | URL, name: string, value: string): void {
    const host = new URL(url).hostname;
    const cookies = this.byHost.get(host) ?? new Map<string, string>();
    cookies.set(name, value);
    this.byHost.set(host, cookies);
  }

  header(url: string | URL): string {
    const cookies = this.byHost.get(new URL(url).hostname) ?? new Map<string, string>();
    return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** fetch without following redirects, sending and keeping this jar's cookies. */
  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.header(url);
    if (cookie !== '') headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(url, response);
    return response;
  }
}
