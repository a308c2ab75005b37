import { Body, Controller } from '@nestjs/common';
import { INTERNAL_USERINFO_OPERATIONS, UserInfoRequestDto } from '@platform/contract';
import { UserInfo } from '@platform/domain';
import { Implements } from '../platform/implements';

/** The claims behind the backend's UserInfo endpoint (OpenID Connect Core section 5.3). */
@Controller()
export class UserInfoController {
  constructor(private readonly userInfo: UserInfo) {}

  @Implements(INTERNAL_USERINFO_OPERATIONS.claims)
  claims(@Body() { user_id, scope }: UserInfoRequestDto) {
    return this.userInfo.claimsFor(user_id, scope);
  }
}
