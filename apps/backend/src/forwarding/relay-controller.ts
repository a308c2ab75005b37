import {
  applyDecorators,
  Controller,
  Inject,
  Req,
  RequestMapping,
  RequestMethod,
  Res,
  type Type,
} from '@nestjs/common';
import { ApiExtraModels, ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import {
  AdminOperation,
  type AnswerModel,
  Answers,
  internalPathOf,
  JsonBody,
  type Operation,
  type OperationAnswer,
  PermissionOperation,
  PublicOperation,
  queryNamesOf,
  Refuses,
  ServerFailures,
} from '@platform/contract';
import { OpaqueBodyMembers, type PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { RequireAdmin } from '../auth/admin.guard';
import { asPrincipal, RequirePermission } from '../auth/permission';
import { ControlPlaneRelay, type ForwardRoute } from './control-plane-relay';

/**
 * What the edge adds to some operations of a table (rewriting addresses in an answer, applying a
 * revocation before answering), by operation id: an injectable of the feature, given to
 * `relayController` beside its table.
 */
export interface RelayHooks {
  readonly routes: Readonly<Record<string, Pick<ForwardRoute, 'then' | 'upstreamHeaders'>>>;
}

/**
 * The backend's controller of an operation table: one route per entry, with the guard of its
 * caller kind, its OpenAPI description, and a handler that forwards it to the control plane
 * (`ControlPlaneRelay`). What the edge decides itself (OAuth endpoints, the browser pages) stays
 * in hand-written controllers.
 */
export function relayController(
  name: string,
  table: Readonly<Record<string, Operation>>,
  hooks?: Type<RelayHooks>,
): Type<unknown> {
  const controller = {
    [name]: class {
      constructor(
        readonly relay: ControlPlaneRelay,
        readonly hooks?: RelayHooks,
      ) {}
    },
  }[name]!;
  Inject(ControlPlaneRelay)(controller, undefined, 0);
  if (hooks !== undefined) Inject(hooks)(controller, undefined, 1);
  Controller()(controller);
  for (const [key, entry] of Object.entries(table)) {
    const forward = forwardRouteOf(entry);
    const handler = function (
      this: InstanceType<typeof controller>,
      request: PlatformRequest,
      reply: FastifyReply,
    ): Promise<void> {
      return this.relay.forward(request, reply, { ...forward, ...this.hooks?.routes[entry.id] });
    };
    Object.defineProperty(handler, 'name', { value: key });
    Object.defineProperty(controller.prototype, key, {
      value: handler,
      writable: true,
      configurable: true,
    });
    const descriptor = Object.getOwnPropertyDescriptor(controller.prototype, key)!;
    Req()(controller.prototype, key, 0);
    Res()(controller.prototype, key, 1);
    relayDecorators(entry)(controller.prototype, key, descriptor);
  }
  return controller;
}

/** Where the control plane answers an entry, and what the edge passes on. */
function forwardRouteOf(entry: Operation): ForwardRoute {
  const query = queryNamesOf(entry);
  return {
    to: `/${internalPathOf(entry)}`,
    ...(entry.body !== undefined && { body: entry.body.type }),
    ...(query.length > 0 && { query }),
    ...(entry.caller.kind === 'permission' && asPrincipal),
    // No credential is asked, so none is passed on.
    ...(entry.caller.kind === 'public' && { forwardAuthorization: false }),
    ...(entry.live === true && { live: true }),
    ...(entry.longPoll === true && { longPoll: true }),
  };
}

/** The route, its guard and its documentation, in the order the hand-written controllers had them. */
function relayDecorators(entry: Operation): MethodDecorator {
  const doc = { id: entry.id, tag: entry.tag, summary: entry.summary, description: entry.description };
  const decorators: MethodDecorator[] = [
    RequestMapping({ path: entry.path, method: RequestMethod[entry.method] }),
    // Before the caller kind's: where both describe a status (a route's own 400 beside the
    // token's), the first applied leads the merged description and the last gives the schema,
    // as the stacked decorators of the hand-written controllers (applied bottom-up) had them.
    ...Object.entries(entry.refuses ?? {}).map(([status, description]) =>
      Refuses(Number(status), description),
    ),
    ...callerDecorators(entry, doc),
    // The query's parameters before the path's, as the hand-written controllers listed them.
    ...(entry.query !== undefined ? [ApiQuery({ type: entry.query })] : []),
    ...Object.entries(entry.params ?? {}).map(([name, details]) =>
      ApiParam({ name, required: true, ...details }),
    ),
    ...(entry.opaque !== undefined ? [OpaqueBodyMembers(...entry.opaque)] : []),
    ...(entry.body?.type === 'json' ? [JsonBody(entry.body.model)] : []),
    answerDecorator(entry.answer),
    ...(entry.otherAnswers ?? []).map(answerDecorator),
    ...(entry.models !== undefined ? [ApiExtraModels(...entry.models)] : []),
  ];
  return applyDecorators(...decorators);
}

function callerDecorators(entry: Operation, doc: Parameters<typeof PublicOperation>[0]): MethodDecorator[] {
  const { caller } = entry;
  switch (caller.kind) {
    case 'admin':
      return [RequireAdmin({ tenantParam: caller.tenantParam }), AdminOperation(doc)];
    case 'permission': {
      const { action, kind: _, ...options } = caller;
      return [RequirePermission(action, options), PermissionOperation(doc)];
    }
    case 'public':
      // Relayed, so it fails as the control plane does (503 when it cannot be reached).
      return [PublicOperation(doc), ServerFailures()];
    case 'internal':
      throw new Error(`${entry.id}: an internal operation is not relayed`);
  }
}

function answerDecorator(answer: OperationAnswer<AnswerModel>): MethodDecorator {
  const { status, model, description, headers } = answer;
  if (model === undefined) return ApiResponse({ status, description });
  const extra = { ...(headers !== undefined && { headers }) };
  return 'oneOf' in model
    ? Answers(status, model.oneOf[0]!, description, { ...extra, oneOf: [...model.oneOf] })
    : Answers(status, model, description, extra);
}
