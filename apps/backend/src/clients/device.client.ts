import { Injectable } from '@nestjs/common';
import {
  type DeviceDecisionDto,
  type DeviceUserCodeDto,
  INTERNAL_DEVICE_OPERATIONS,
  internalPathOf,
} from '@platform/contract';
import { ControlPlaneClient } from './control-plane.client';
import { isRecord, isString, postInternalJson, unexpectedAnswer } from './internal-json';

/** The pending request a user code names, as the consent page shows it. */
export interface DevicePrompt {
  clientId: string;
  clientName: string;
  userCode: string;
  scopes: Array<{ name: string; description: string }>;
  user: { name?: string; email?: string };
}

export type DeviceCheck =
  { outcome: 'prompt'; prompt: DevicePrompt } | { outcome: 'unknown' } | { outcome: 'session-expired' };

export type DeviceDecision =
  | { outcome: 'decided'; status: 'approved' | 'denied' }
  | { outcome: 'unknown' }
  | { outcome: 'session-expired' };

/** The verification page's decisions, owned by the control plane (`/internal/v1/device/*`). */
@Injectable()
export class DeviceClient {
  constructor(private readonly controlPlane: ControlPlaneClient) {}

  async check(session: string, userCode: string): Promise<DeviceCheck> {
    const path = `/${internalPathOf(INTERNAL_DEVICE_OPERATIONS.check)}`;
    const { status, body } = await postInternalJson(
      this.controlPlane,
      path,
      { session, user_code: userCode } satisfies DeviceUserCodeDto,
      { answersUnauthorized: true },
    );
    if (status === 401) return { outcome: 'session-expired' };
    if (status === 404) return { outcome: 'unknown' };
    const prompt = status === 200 ? toPrompt(body) : undefined;
    return prompt ? { outcome: 'prompt', prompt } : unexpectedAnswer(path, status);
  }

  async decide(session: string, userCode: string, approved: boolean): Promise<DeviceDecision> {
    const path = `/${internalPathOf(INTERNAL_DEVICE_OPERATIONS.decision)}`;
    const { status, body } = await postInternalJson(
      this.controlPlane,
      path,
      { session, user_code: userCode, approved } satisfies DeviceDecisionDto,
      { answersUnauthorized: true },
    );
    if (status === 401) return { outcome: 'session-expired' };
    if (status === 404) return { outcome: 'unknown' };
    if (status === 200 && isRecord(body) && (body.status === 'approved' || body.status === 'denied')) {
      return { outcome: 'decided', status: body.status };
    }
    return unexpectedAnswer(path, status);
  }
}

function toPrompt(body: unknown): DevicePrompt | undefined {
  if (!isRecord(body) || !isString(body.client_id) || !isString(body.user_code)) return undefined;
  const scopes = Array.isArray(body.scopes) ? body.scopes : [];
  const user = isRecord(body.user) ? body.user : {};
  return {
    clientId: body.client_id,
    clientName: isString(body.client_name) && body.client_name !== '' ? body.client_name : body.client_id,
    userCode: body.user_code,
    scopes: scopes.filter(isRecord).map((scope) => ({
      name: isString(scope.name) ? scope.name : '',
      description:
        isString(scope.description) && scope.description !== ''
          ? scope.description
          : String(scope.name ?? ''),
    })),
    user: {
      ...(isString(user.name) && { name: user.name }),
      ...(isString(user.email) && { email: user.email }),
    },
  };
}
