import { Injectable } from '@nestjs/common';
import {
  INTERNAL_USERINFO_OPERATIONS,
  internalPathOf,
  type UserInfoDto,
  type UserInfoRequestDto,
} from '@platform/contract';
import { BearerError } from '@platform/domain';
import { ControlPlaneClient } from './control-plane.client';
import { isRecord, isString, postInternalJson, unexpectedAnswer } from './internal-json';

/** The UserInfo claims, read by the control plane from the user record. */
@Injectable()
export class UserInfoClient {
  constructor(private readonly controlPlane: ControlPlaneClient) {}

  async claims(userId: string, scope: string): Promise<UserInfoDto> {
    const path = `/${internalPathOf(INTERNAL_USERINFO_OPERATIONS.claims)}`;
    const { status, body } = await postInternalJson(
      this.controlPlane,
      path,
      { user_id: userId, scope } satisfies UserInfoRequestDto,
      { answersUnauthorized: true },
    );
    // The user was deleted or deactivated since the token was issued.
    if (status === 401) throw new BearerError('invalid_token', 'The user of this token is no longer active');
    if (status !== 200 || !isRecord(body) || !isString(body.sub)) return unexpectedAnswer(path, status);
    return body as unknown as UserInfoDto;
  }
}
