import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { RolesProperty, ScopesProperty, UnixSecondsProperty } from './fields';

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
}

@ApiSchema({ name: 'Ping' })
export class PingDto {
  @ApiProperty({ type: 'boolean', enum: [true] })
  ok: true;
}
