import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { type ScimAnswer, type ScimCaller, ScimProvisioning } from '@platform/domain';
import { SCIM_CONTENT_TYPE } from '@platform/http';
import { PRINCIPAL_HEADER, TENANT_HEADER } from '@platform/internal';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { InternalGuard } from '../internal/internal.guard';
import { RevocationFeed } from '../platform/revocation-feed';
import { readPrincipal } from '../tenants/principal';

type Query = Record<string, unknown>;

/**
 * SCIM 2.0 Users and Groups of the caller's tenant (docs/scim.md). The backend already checked
 * `scim.read` / `scim.write` through the sidecar and names the caller in `x-platform-principal`;
 * which tenant it provisions is decided here (`ScimProvisioning.callerOf`). A deprovisioning
 * wakes the revocation feed, so every sidecar denies the user's tokens at once.
 */
@Controller('internal/v1/scim/v2')
@UseGuards(InternalGuard)
export class InternalScimController {
  constructor(
    private readonly scim: ScimProvisioning,
    private readonly feed: RevocationFeed,
  ) {}

  @Get('Users')
  async listUsers(
    @Headers() headers: Query,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return scimJson(reply, await this.scim.listUsers(await this.callerOf(headers), queryOf(request)));
  }

  @Post('Users')
  async createUser(
    @Headers() headers: Query,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return created(reply, await this.scim.createUser(await this.callerOf(headers), body));
  }

  @Get('Users/:id')
  async getUser(
    @Headers() headers: Query,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return answered(reply, await this.scim.getUser(await this.callerOf(headers), id, queryOf(request)));
  }

  @Put('Users/:id')
  async replaceUser(
    @Headers() headers: Query,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const answer = await this.scim.replaceUser(await this.callerOf(headers), id, body, ifMatchOf(headers));
    this.feed.wake();
    return answered(reply, answer);
  }

  @Patch('Users/:id')
  async patchUser(
    @Headers() headers: Query,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const answer = await this.scim.patchUser(await this.callerOf(headers), id, body, ifMatchOf(headers));
    this.feed.wake();
    return answered(reply, answer);
  }

  @Delete('Users/:id')
  @HttpCode(204)
  async deleteUser(@Headers() headers: Query, @Param('id') id: string): Promise<void> {
    await this.scim.deleteUser(await this.callerOf(headers), id, ifMatchOf(headers));
    this.feed.wake();
  }

  @Get('Groups')
  async listGroups(
    @Headers() headers: Query,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return scimJson(reply, await this.scim.listGroups(await this.callerOf(headers), queryOf(request)));
  }

  @Post('Groups')
  async createGroup(
    @Headers() headers: Query,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return created(reply, await this.scim.createGroup(await this.callerOf(headers), body));
  }

  @Get('Groups/:id')
  async getGroup(
    @Headers() headers: Query,
    @Param('id') id: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return answered(reply, await this.scim.getGroup(await this.callerOf(headers), id, queryOf(request)));
  }

  @Put('Groups/:id')
  async replaceGroup(
    @Headers() headers: Query,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return answered(
      reply,
      await this.scim.replaceGroup(await this.callerOf(headers), id, body, ifMatchOf(headers)),
    );
  }

  @Patch('Groups/:id')
  async patchGroup(
    @Headers() headers: Query,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return answered(
      reply,
      await this.scim.patchGroup(await this.callerOf(headers), id, body, ifMatchOf(headers)),
    );
  }

  @Delete('Groups/:id')
  @HttpCode(204)
  async deleteGroup(@Headers() headers: Query, @Param('id') id: string): Promise<void> {
    await this.scim.deleteGroup(await this.callerOf(headers), id, ifMatchOf(headers));
  }

  private callerOf(headers: Query): Promise<ScimCaller> {
    const tenant = headers[TENANT_HEADER];
    return this.scim.callerOf(
      readPrincipal(headers[PRINCIPAL_HEADER] as string | undefined),
      typeof tenant === 'string' && tenant !== '' ? tenant : undefined,
    );
  }
}

/** The raw query: SCIM parameters are read by the SCIM rules, not by class validation. */
function queryOf(request: FastifyRequest): Query {
  return (request.query ?? {}) as Query;
}

function ifMatchOf(headers: Query): string | undefined {
  const value = headers['if-match'];
  return typeof value === 'string' ? value : undefined;
}

function scimJson(reply: FastifyReply, body: object): object {
  void reply.header('content-type', SCIM_CONTENT_TYPE);
  return body;
}

function answered(reply: FastifyReply, answer: ScimAnswer): object {
  void reply.header('etag', answer.etag);
  return scimJson(reply, answer.resource);
}

/** 201 with the new resource, its Location and its ETag (RFC 7644 section 3.3). */
function created(reply: FastifyReply, answer: ScimAnswer): object {
  const location = (answer.resource.meta as { location: string }).location;
  void reply.status(201).header('location', location);
  return answered(reply, answer);
}
