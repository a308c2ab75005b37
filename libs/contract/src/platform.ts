import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { DefinitionChange, ImpersonationClaim } from '@platform/domain';
import { RolesProperty, ScopesProperty, UnixSecondsProperty } from './fields';
import { ActorProperty, ImpersonationProperty, type TokenActorDto } from './token-claims';
import { operation } from './operation-table';

@ApiSchema({ name: 'Health' })
export class HealthDto {
  @ApiProperty({ enum: ['ok', 'degraded'] })
  status: 'ok' | 'degraded';

  @ApiProperty({ enum: ['connected', 'unavailable'], description: 'Connection state.' })
  sidecar: 'connected' | 'unavailable';

  @ApiProperty({ description: 'Platform version (Semantic Versioning).', example: '0.9.0' })
  version: string;
}

@ApiSchema({ name: 'Probe', description: 'A liveness or readiness answer.' })
export class ProbeDto {
  @ApiProperty({ enum: ['ok', 'unavailable', 'draining'] })
  status: 'ok' | 'unavailable' | 'draining';
}

@ApiSchema({
  name: 'Me',
  description:
    'The caller as the sidecar sees its token; `tenant` for user tokens and the tokens of an app bound to a tenant, `roles` for user tokens only.',
})
export class MeDto {
  @ApiProperty() sub: string;
  @ApiProperty() client_id: string;
  @ScopesProperty() scope: string;
  @ApiPropertyOptional() tenant?: string;
  @RolesProperty({ required: false }) roles?: string[];
  @UnixSecondsProperty() exp: number;
  @ActorProperty() act?: TokenActorDto;
  @ImpersonationProperty() impersonation?: ImpersonationClaim;
}

@ApiSchema({ name: 'Ping' })
export class PingDto {
  @ApiProperty({ type: 'boolean', enum: [true] })
  ok: true;
}

/** One page of the feed of definition changes (internal: not in the public document). */
export class DefinitionChangesDto {
  definitions: DefinitionChange[];
  /** The seq of the last change answered, else the `after` asked for: the next page's `after`. */
  last_seq: number;
}

/**
 * The feed of definition changes (rate limit rules, flags, masking settings) every sidecar
 * follows (docs/internal-api.md): every change after `after`, tombstones (`document: null`)
 * included, in commit order; and the same live as Server-Sent Events.
 */
export const DEFINITION_FEED_OPERATIONS = {
  after: operation({
    id: 'listDefinitionChanges',
    tag: 'Internal',
    summary: 'The definition changes after a seq',
    method: 'GET',
    path: 'internal/v1/definitions',
    caller: { kind: 'internal' },
    answer: { status: 200, model: DefinitionChangesDto, description: 'One page of changes, oldest first.' },
  }),
  stream: operation({
    id: 'streamDefinitionChanges',
    tag: 'Internal',
    summary: 'The definition changes, live',
    description: 'Server-Sent Events: one event per change, `id` = seq, so a reconnect resumes with `after`.',
    method: 'GET',
    path: 'internal/v1/definitions/stream',
    caller: { kind: 'internal' },
    answer: { status: 200, description: 'The changes after `after`, then each one as it commits.' },
  }),
};

/** The control plane's `GET /health` (internal: not in the public document). */
export class ControlPlaneHealthDto {
  status: 'ok';
  database: 'connected';
  /** Platform version (Semantic Versioning). */
  version: string;
}

/**
 * What the control plane answers itself, with no credential, for the orchestrator and the metrics
 * scraper of the internal network; the backend does not relay them.
 */
export const CONTROL_PLANE_PROBE_OPERATIONS = {
  health: operation({
    id: 'getControlPlaneHealth',
    tag: 'Platform',
    summary: 'The control plane’s health, with its database',
    method: 'GET',
    path: 'health',
    caller: { kind: 'public' },
    answer: { status: 200, model: ControlPlaneHealthDto, description: 'Up, and the database answers.' },
  }),
  live: operation({
    id: 'getControlPlaneLiveness',
    tag: 'Platform',
    summary: 'Liveness probe',
    method: 'GET',
    path: 'livez',
    caller: { kind: 'public' },
    answer: { status: 200, model: ProbeDto, description: 'The process runs.' },
  }),
  ready: operation({
    id: 'getControlPlaneReadiness',
    tag: 'Platform',
    summary: 'Readiness probe',
    description: '503 `draining` from SIGTERM on, `unavailable` while the database does not answer.',
    method: 'GET',
    path: 'readyz',
    caller: { kind: 'public' },
    answer: { status: 200, model: ProbeDto, description: 'Ready for requests.' },
  }),
  metrics: operation({
    id: 'getControlPlaneMetrics',
    tag: 'Platform',
    summary: 'Prometheus metrics',
    method: 'GET',
    path: 'metrics',
    caller: { kind: 'public' },
    answer: { status: 200, description: 'The Prometheus text format (not JSON).' },
  }),
};
