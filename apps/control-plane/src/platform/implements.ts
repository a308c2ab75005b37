import {
  applyDecorators,
  HttpCode,
  RequestMapping,
  RequestMethod,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import {
  type AnswerModel,
  type AnswerOf,
  internalPathOf,
  type Operation,
  routeShapeOf,
} from '@platform/contract';
import { LiveRoute, OpaqueBodyMembers } from '@platform/http';
import { ApiCallMetering } from '../plans/api-call-metering.interceptor';
import { AdminRoute, InternalRoute, PublicRoute } from './route-authority';

/** The Nest metadata key carrying the operation entries a handler implements. */
export const IMPLEMENTED_OPERATIONS = 'platform:implemented-operations';

/**
 * The handler of an operation of the public table (libs/contract, `operation(...)`): its route
 * (the control plane's path of the entry), the guard of its caller kind (an admin route checks the
 * admin token again; a permission route is internal, for the principal the edge authorized), its
 * success status, and a return type checked against the entry's answer. Several entries may share
 * one handler when they reach the same control-plane route.
 */
export function Implements<M extends AnswerModel>(entry: Operation<M>, ...more: Operation<M>[]) {
  if (entry.live === true) throw new Error(`${entry.id} is live: its handler takes @ImplementsLive`);
  const decorator = routeOf(entry, more);
  return <H extends (...args: never[]) => Promise<AnswerOf<M>> | AnswerOf<M>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<H>,
  ): void => {
    decorator(target, key, descriptor);
  };
}

/**
 * The handler of a live listing (`live: true`): as `Implements`, and a request accepting
 * `text/event-stream` gets the stream (`LiveRoute`, `followFeed` through a passthrough reply), so
 * the handler answers either its page or nothing of its own.
 */
export function ImplementsLive<M extends AnswerModel>(entry: Operation<M>) {
  if (entry.live !== true) throw new Error(`${entry.id} is not live: its handler takes @Implements`);
  const decorator = applyDecorators(routeOf(entry, []), LiveRoute());
  return <H extends (...args: never[]) => Promise<AnswerOf<M> | void>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<H>,
  ): void => {
    decorator(target, key, descriptor);
  };
}

function routeOf(entry: Operation, more: Operation[]): MethodDecorator {
  for (const other of more) {
    if (
      other.method !== entry.method ||
      routeShapeOf(internalPathOf(other)) !== routeShapeOf(internalPathOf(entry))
    ) {
      throw new Error(`${entry.id} and ${other.id} do not reach the same control-plane route`);
    }
  }
  return applyDecorators(
    RequestMapping({ path: internalPathOf(entry), method: RequestMethod[entry.method] }),
    routeKindOf(entry),
    HttpCode(entry.answer.status),
    ...(entry.opaque !== undefined ? [OpaqueBodyMembers(...entry.opaque)] : []),
    SetMetadata(IMPLEMENTED_OPERATIONS, [entry, ...more]),
  );
}

function routeKindOf({ caller }: Operation): MethodDecorator {
  switch (caller.kind) {
    case 'admin':
      return AdminRoute({ tenantParam: caller.tenantParam });
    case 'permission':
      // A tenant's API call: counted against its `api_calls` quota (docs/plans.md).
      return applyDecorators(
        InternalRoute({ tenantParam: caller.tenantParam }),
        UseInterceptors(ApiCallMetering),
      );
    case 'internal':
      return InternalRoute({ tenantParam: caller.tenantParam });
    case 'public':
      return PublicRoute();
  }
}
