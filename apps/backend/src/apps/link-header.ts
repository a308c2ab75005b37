const CONTROL_PLANE_APPS = '/api/v1/apps';

/**
 * Rewrites the control plane's RFC 8288 `Link` header (`</api/v1/apps?limit=..&after=..>;
 * rel="next"`) into the backend's public address (`<{issuer}/v1/oauth/apps?...>; rel="next"`).
 * Targets outside `/api/v1/apps` are left as they are.
 */
export function rewriteAppsLink(link: string, issuer: string): string {
  return link.replace(/<([^>]*)>/g, (whole, target: string) => {
    const publicTarget = publicAppsUrl(target, issuer);
    return publicTarget === undefined ? whole : `<${publicTarget}>`;
  });
}

/** `/api/v1/apps[/...][?...]` (relative or absolute) as `{issuer}/v1/oauth/apps[/...][?...]`. */
export function publicAppsUrl(target: string, issuer: string): string | undefined {
  let url: URL;
  try {
    url = new URL(target, 'http://control-plane.invalid');
  } catch {
    return undefined;
  }
  const path = url.pathname;
  if (path !== CONTROL_PLANE_APPS && !path.startsWith(`${CONTROL_PLANE_APPS}/`)) return undefined;
  return `${issuer}/v1/oauth/apps${path.slice(CONTROL_PLANE_APPS.length)}${url.search}`;
}
