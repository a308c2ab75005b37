/**
 * On a 200 answer of the control plane's internal introspection route: whose tokens the
 * authenticated caller may see, `any` (a resource server or admin app) or `own`. The backend
 * that relays it remembers the caller's authentication with it (and drops the header), so it can
 * answer that caller's next introspections of tokens it can judge itself (docs/performance.md).
 */
export const INTROSPECTION_REACH_HEADER = 'x-platform-introspection-reach';
export type IntrospectionReach = 'any' | 'own';
