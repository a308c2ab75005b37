import type { Type } from '@nestjs/common';
import type { Tag } from './operations';

/**
 * One declaration per operation of the public API (docs/code-organisation.md, "an operation"):
 * what the edge exposes and what the control plane implements, read by both. The backend builds
 * its relay controllers from these entries (`relayController`), the control plane's handlers take
 * `@Implements(entry)`, and a test pairs the two. Entries live beside their DTOs, one table per
 * feature, listed in `./operation-index.ts`.
 */
export interface Operation<M extends AnswerModel = AnswerModel> {
  /** The OpenAPI `operationId`; unique. */
  id: string;
  tag: Tag;
  summary: string;
  description?: string;
  method: HttpMethod;
  /** The path as clients call it, `:name` for a parameter. */
  path: string;
  /** The control plane's path, where it differs (operations the control plane serves as internal routes). */
  internal?: string;
  caller: OperationCaller;
  /** The path parameters, with an example or a description, in the order the document lists them. */
  params?: Readonly<Record<string, { example?: string | number; description?: string }>>;
  /** The body: its media type and its DTO. */
  body?: { type: 'json' | 'scim'; model: Type<unknown> };
  /** The query's DTO: its properties are the query parameters passed on, any other is dropped. */
  query?: Type<unknown>;
  /** The success answer: its status, its model (none for an empty answer) and what it means. */
  answer: OperationAnswer<M>;
  /**
   * Other success answers, the handler setting their status (a repeated submission's 200, a long
   * poll's 204): the same model or none (then `M` includes `undefined`).
   */
  otherAnswers?: readonly OperationAnswer<M>[];
  /** Models the document defines though no body or answer names them (what a webhook receives). */
  models?: readonly Type<unknown>[];
  /** Problem-details refusals of its own, by status (those of its caller kind are implied). */
  refuses?: Readonly<Record<number, string>>;
  /** Body members kept exactly as sent (a secret's value), never checked as storable text. */
  opaque?: readonly string[];
  /** A request accepting `text/event-stream` gets the listing live (docs/code-organisation.md). */
  live?: boolean;
  /** The control plane holds the request until there is something to answer (a job to claim). */
  longPoll?: boolean;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call the operation and where its tenant comes from (docs/authorization.md):
 * - `admin`: a platform admin token, checked by the edge and again by the control plane on the
 *   same path;
 * - `permission`: an action the policy engine decides at the edge; the control plane serves it as
 *   an internal route (`internal` path) for the principal the edge names;
 * - `public`: no credential;
 * - `internal`: our own processes only (the internal token): a control-plane route the backend's
 *   own logic or a sidecar calls, never relayed as such.
 */
export type OperationCaller =
  | { kind: 'admin'; tenantParam?: string }
  | {
      kind: 'permission';
      action: string;
      tenantParam?: string;
      tenantBody?: string;
      callerTenant?: boolean;
    }
  | { kind: 'public' }
  | { kind: 'internal'; tenantParam?: string };

/** One model, an array of one model, one of several models, or none (an empty answer). */
export type AnswerModel =
  Type<unknown> | [Type<unknown>] | { oneOf: ReadonlyArray<Type<unknown>> } | undefined;

export interface OperationAnswer<M extends AnswerModel> {
  status: number;
  model?: M;
  description: string;
  headers?: Record<string, unknown>;
}

/** What a handler of an operation answering `M` returns. */
export type AnswerOf<M extends AnswerModel> = M extends [Type<infer T>]
  ? T[]
  : M extends { oneOf: ReadonlyArray<Type<infer T>> }
    ? T
    : M extends Type<infer T>
      ? T
      : void;

/** An entry of an operation table, its answer type inferred from its model. */
export const operation = <M extends AnswerModel = undefined>(entry: Operation<M>): Operation<M> => entry;

/** The path the control plane serves an operation on. */
export const internalPathOf = (entry: Operation): string => entry.internal ?? entry.path;

/**
 * The route a path is, whatever its parameters are called: two entries whose control-plane paths
 * differ only there (`apps/:id/rotate-secret`, `apps/:app_id/rotate-secret`) reach one handler.
 */
export const routeShapeOf = (path: string): string => path.replace(/:[A-Za-z0-9_]+/g, ':');

/** The query parameters of an operation: the properties its query DTO documents. */
export function queryNamesOf(entry: Operation): string[] {
  if (entry.query === undefined) return [];
  const documented = (Reflect.getMetadata('swagger/apiModelPropertiesArray', entry.query.prototype) ??
    []) as string[];
  return documented.map((name) => name.replace(/^:/, ''));
}
