import { Controller, Delete, Get, Put, Req, Res } from '@nestjs/common';
import { ApiParam, ApiResponse } from '@nestjs/swagger';
import {
  AdminOperation,
  Answers,
  JsonBody,
  MaskingSettingsDto,
  MaskingSettingsUpdateDto,
  Refuses,
} from '@platform/contract';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { RequireAdmin } from '../auth/admin.guard';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

const NO_SETTINGS = 'The tenant has no masking settings.';

/**
 * A tenant's masking settings (docs/masking.md), applied by the sidecars' MaskingService to every
 * call of the tenant; admin Bearer token, same paths as the control plane's.
 */
@Controller('api/v1/tenants/:tenant/masking')
@ApiParam({ name: 'tenant', required: true, example: 'acme' })
@RequireAdmin({ tenantParam: 'tenant' })
export class MaskingSettingsController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Get()
  @AdminOperation({ id: 'getMaskingSettings', tag: 'Masking', summary: 'The masking settings of a tenant' })
  @Answers(200, MaskingSettingsDto, 'The settings and their version.')
  @Refuses(404, NO_SETTINGS)
  get(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/tenants/:tenant/masking' });
  }

  @Put()
  @AdminOperation({
    id: 'putMaskingSettings',
    tag: 'Masking',
    summary: 'Set the masking settings of a tenant',
    description:
      'Its custom patterns apply to every MaskString and Mask of the tenant, at every sidecar within a second. A pattern the service refuses is **400** with the reason. Audited (`masking.settings_changed`).',
  })
  @JsonBody(MaskingSettingsUpdateDto)
  @Answers(200, MaskingSettingsDto, 'The settings as stored.')
  put(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/tenants/:tenant/masking', body: 'json' });
  }

  @Delete()
  @AdminOperation({
    id: 'deleteMaskingSettings',
    tag: 'Masking',
    summary: 'Remove the masking settings of a tenant',
  })
  @ApiResponse({ status: 204, description: 'Removed: only the built-in detectors apply.' })
  @Refuses(404, NO_SETTINGS)
  delete(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/tenants/:tenant/masking' });
  }
}
