import { Body, Controller, Headers, Param, Req, Res } from '@nestjs/common';
import { SCIM_OPERATIONS } from '@platform/contract';
import { type ScimAnswer, type ScimCaller, ScimProvisioning } from '@platform/domain';
import { SCIM_CONTENT_TYPE } from '@platform/http';
import { PRINCIPAL_HEADER, TENANT_HEADER } from '@platform/internal';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Implements } from '../platform/implements';
import { RevocationFeed } from '../platform/revocation-feed';
import { readPrincipal } from '../tenants/principal';

type Json = Record<string, unknown>;

/**
 * SCIM 2.0 Users and Groups of the caller's tenant (`:resource` is `Users` or `Groups`;
 * docs/scim.md). The backend already checked `scim.read` / `scim.write` through the sidecar and
 * names the caller in `x-platform-principal`; which tenant it provisions is decided here
 * (`ScimProvisioning.callerOf`). A write may deprovision a user: it wakes the revocation feed,
 * so every sidecar denies the user's tokens at once.
 */
@Controller()
export class InternalScimController {
  constructor(
    private readonly scim: ScimProvisioning,
    private readonly feed: RevocationFeed,
  ) {}

  @Implements(SCIM_OPERATIONS.list)
  async list(
    @Param('resource') resource: string,
    @Headers() headers: Json,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const list = await this.scim.operationsOf(resource).list(await this.callerOf(headers), queryOf(request));
    void reply.header('content-type', SCIM_CONTENT_TYPE);
    return list;
  }

  @Implements(SCIM_OPERATIONS.create)
  async create(
    @Param('resource') resource: string,
    @Headers() headers: Json,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const answer = await this.scim.operationsOf(resource).create(await this.callerOf(headers), body);
    // 201 with the new resource, its Location and its ETag (RFC 7644 section 3.3).
    void reply.header('location', (answer.resource.meta as { location: string }).location);
    return answered(reply, answer);
  }

  @Implements(SCIM_OPERATIONS.get)
  async get(
    @Param('resource') resource: string,
    @Param('id') id: string,
    @Headers() headers: Json,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const answer = await this.scim
      .operationsOf(resource)
      .get(await this.callerOf(headers), id, queryOf(request));
    return answered(reply, answer);
  }

  @Implements(SCIM_OPERATIONS.replace)
  async replace(
    @Param('resource') resource: string,
    @Param('id') id: string,
    @Headers() headers: Json,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.change(reply, headers, (caller) =>
      this.scim.operationsOf(resource).replace(caller, id, body, ifMatchOf(headers)),
    );
  }

  @Implements(SCIM_OPERATIONS.patch)
  async patch(
    @Param('resource') resource: string,
    @Param('id') id: string,
    @Headers() headers: Json,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.change(reply, headers, (caller) =>
      this.scim.operationsOf(resource).patch(caller, id, body, ifMatchOf(headers)),
    );
  }

  @Implements(SCIM_OPERATIONS.delete)
  async delete(@Param('resource') resource: string, @Param('id') id: string, @Headers() headers: Json) {
    await this.scim.operationsOf(resource).delete(await this.callerOf(headers), id, ifMatchOf(headers));
    this.feed.wake();
  }

  /** A PUT or PATCH: it may deprovision a user, so the revocation feed is woken after it. */
  private async change(
    reply: FastifyReply,
    headers: Json,
    write: (caller: ScimCaller) => Promise<ScimAnswer>,
  ): Promise<object> {
    const answer = await write(await this.callerOf(headers));
    this.feed.wake();
    return answered(reply, answer);
  }

  private callerOf(headers: Json): Promise<ScimCaller> {
    const tenant = headers[TENANT_HEADER];
    return this.scim.callerOf(
      readPrincipal(headers[PRINCIPAL_HEADER] as string | undefined),
      typeof tenant === 'string' && tenant !== '' ? tenant : undefined,
    );
  }
}

/** The raw query: SCIM parameters are read by the SCIM rules, not by class validation. */
function queryOf(request: FastifyRequest): Json {
  return (request.query ?? {}) as Json;
}

function ifMatchOf(headers: Json): string | undefined {
  const value = headers['if-match'];
  return typeof value === 'string' ? value : undefined;
}

function answered(reply: FastifyReply, answer: ScimAnswer): object {
  void reply.header('etag', answer.etag).header('content-type', SCIM_CONTENT_TYPE);
  return answer.resource;
}
