import { Controller, Delete, Get, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AdminGuard } from '../auth/admin.guard';
import { type Caller, CurrentCaller, JsonBody } from '../http/caller';
import { relay } from '../http/relay';
import { AppsService } from './apps.service';

/** Application management (admin Bearer token). */
@Controller('v1/oauth/apps')
@UseGuards(AdminGuard)
export class AppsController {
  constructor(private readonly apps: AppsService) {}

  @Post()
  async register(
    @JsonBody() body: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await relay(reply, await this.apps.register(body, caller));
  }

  @Get()
  async list(
    @Query() query: Record<string, unknown>,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await relay(reply, await this.apps.list(query, caller));
  }

  @Get(':id')
  async get(
    @Param('id') id: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await relay(reply, await this.apps.get(id, caller));
  }

  @Delete(':id')
  async delete(
    @Param('id') id: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await relay(reply, await this.apps.delete(id, caller));
  }

  @Post(':id/rotate-secret')
  async rotateSecret(
    @Param('id') id: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await relay(reply, await this.apps.rotateSecret(id, caller));
  }
}

/** Custom scope definitions (admin Bearer token), same paths as the control plane's. */
@Controller('api/v1/scopes')
@UseGuards(AdminGuard)
export class ScopesController {
  constructor(private readonly apps: AppsService) {}

  @Post()
  async define(
    @JsonBody() body: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await relay(reply, await this.apps.defineScope(body, caller));
  }

  @Get()
  async list(@CurrentCaller() caller: Caller, @Res() reply: FastifyReply): Promise<void> {
    await relay(reply, await this.apps.listScopes(caller));
  }
}

/** The token event stream (admin Bearer token). */
@Controller('api/v1/token-events')
@UseGuards(AdminGuard)
export class TokenEventsController {
  constructor(private readonly apps: AppsService) {}

  @Get()
  async list(
    @Query() query: Record<string, unknown>,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await relay(reply, await this.apps.tokenEvents(query, caller));
  }
}

/** Signing-key rotation (admin Bearer token): the new key signs, the old one stays published. */
@Controller('api/v1/keys')
@UseGuards(AdminGuard)
export class KeysController {
  constructor(private readonly apps: AppsService) {}

  @Post('rotate')
  async rotate(@CurrentCaller() caller: Caller, @Res() reply: FastifyReply): Promise<void> {
    await relay(reply, await this.apps.rotateSigningKey(caller));
  }
}
