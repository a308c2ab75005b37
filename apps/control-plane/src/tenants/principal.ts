import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { type ActingPrincipal, validationFailed } from '@platform/domain';
import { PRINCIPAL_HEADER } from '@platform/internal';
import type { FastifyRequest } from 'fastify';

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

/**
 * `base64url(JSON {kind, id, client_id, tenant, roles, scope, acted_by?})` (docs/internal-api.md). Only
 * our backend can send it (the route is behind the internal token); a missing or malformed
 * header is a broken caller: 400.
 */
export function readPrincipal(header: string | string[] | undefined): ActingPrincipal {
  const value = Array.isArray(header) ? header[0] : header;
  let parsed: unknown;
  try {
    parsed = value ? JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) : undefined;
  } catch {
    parsed = undefined;
  }
  const p = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const kind = p.kind;
  if (
    (kind !== 'user' && kind !== 'service') ||
    typeof p.id !== 'string' ||
    typeof p.client_id !== 'string' ||
    (p.tenant !== null && p.tenant !== undefined && typeof p.tenant !== 'string') ||
    !isStringArray(p.roles ?? []) ||
    (p.acted_by !== undefined && typeof p.acted_by !== 'string')
  ) {
    throw validationFailed(`${PRINCIPAL_HEADER} is missing or malformed`);
  }
  return {
    kind,
    id: p.id,
    clientId: p.client_id,
    tenant: typeof p.tenant === 'string' && p.tenant !== '' ? p.tenant : null,
    roles: (p.roles as string[] | undefined) ?? [],
    scopes: typeof p.scope === 'string' ? p.scope.split(' ').filter((s) => s !== '') : [],
    ...(typeof p.acted_by === 'string' && p.acted_by !== '' && { actedBy: p.acted_by }),
  };
}

/** The caller an internal route acts for: the principal the backend or a sidecar authorized. */
export const Caller = createParamDecorator((_: unknown, context: ExecutionContext): ActingPrincipal =>
  readPrincipal(context.switchToHttp().getRequest<FastifyRequest>().headers[PRINCIPAL_HEADER]),
);
