import type { TokenClaims } from '@platform/grpc';
import { encodePrincipal } from '@platform/internal';
import { AuthorizationError, invalidArgument } from '../authorization/authorization.error';
import { SidecarError } from '../errors';
import type { ControlPlaneApi } from './control-plane-api';

/**
 * A control-plane call for a caller the sidecar already authorized (named as the principal),
 * its refusals in gRPC terms: 400 INVALID_ARGUMENT, 403 PERMISSION_DENIED, 404 NOT_FOUND, with
 * 409 FAILED_PRECONDITION, with the control plane's detail; any other refusal is
 * `control_plane_rejected`.
 */
export async function callForCaller(
  controlPlane: ControlPlaneApi,
  claims: TokenClaims,
  method: 'GET' | 'POST',
  path: string,
  payload?: unknown,
): Promise<unknown> {
  return (await answerForCaller(controlPlane, claims, method, path, payload)).body;
}

/** As callForCaller, with the status of the answer (201 or 200). */
export async function answerForCaller(
  controlPlane: ControlPlaneApi,
  claims: TokenClaims,
  method: 'GET' | 'POST',
  path: string,
  payload?: unknown,
): Promise<{ status: number; body: unknown }> {
  const { status, body } = await controlPlane.callAsPrincipal(method, path, encodePrincipal(claims), payload);
  if (status >= 200 && status < 300) return { status, body };
  const detail = (body as { detail?: unknown } | null)?.detail;
  const message = typeof detail === 'string' ? detail : `the control plane answered ${status}`;
  if (status === 400) throw invalidArgument(message);
  if (status === 403) throw new AuthorizationError('permission_denied', message);
  if (status === 404) throw new AuthorizationError('not_found', message);
  if (status === 409) throw new AuthorizationError('failed_precondition', message);
  throw new SidecarError(
    'control_plane_rejected',
    `control plane answered ${status} on ${path.split('?')[0]}`,
  );
}

/** `/internal/v1/tenants/<tenant>`. */
export const tenantPath = (tenant: string) => `/internal/v1/tenants/${encodeURIComponent(tenant)}`;
