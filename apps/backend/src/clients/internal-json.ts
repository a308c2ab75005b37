import { Logger } from '@nestjs/common';
import { DomainError } from '@platform/domain';
import type { ControlPlaneClient } from './control-plane.client';

const logger = new Logger('ControlPlaneClient');

export interface JsonAnswer {
  status: number;
  body: unknown;
}

/** POST a JSON body to an internal control-plane route; the answer's status and parsed body. */
export async function postInternalJson(
  controlPlane: ControlPlaneClient,
  path: string,
  body: object,
  options: { answersUnauthorized?: boolean } = {},
): Promise<JsonAnswer> {
  const response = await controlPlane.request({
    method: 'POST',
    path,
    contentType: 'application/json',
    body: JSON.stringify(body),
    ...(options.answersUnauthorized && { answersUnauthorized: true }),
  });
  if (response.body.length === 0) return { status: response.status, body: undefined };
  try {
    return { status: response.status, body: JSON.parse(response.body.toString('utf8')) };
  } catch {
    return unexpectedAnswer(path, response.status);
  }
}

/** An answer outside the contract: logged by status only, and 503 for the browser. */
export function unexpectedAnswer(path: string, status: number): never {
  logger.error(`POST ${path}: unexpected answer ${status} from the control plane`);
  throw new DomainError('unavailable', 'The control plane answered unexpectedly');
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const isString = (value: unknown): value is string => typeof value === 'string';
