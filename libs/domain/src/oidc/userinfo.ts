import { DomainError } from '../errors';
import { parseScope } from '../scopes';
import type { User, UserStore } from '../users/user';

/** The claims UserInfo may answer, as discovery lists them. */
export const USERINFO_CLAIMS = ['sub', 'name', 'preferred_username', 'updated_at', 'email'] as const;

/** Core section 5.1 claims the UserInfo endpoint answers for a token's scopes. */
export interface UserInfoClaims {
  sub: string;
  name?: string;
  preferred_username?: string;
  updated_at?: number;
  email?: string;
}

/**
 * What the user record says, per scope (Core section 5.4): `profile` gives the name and user name
 * (SCIM's userName, else the email), `email` the address. A claim the record does not have is left
 * out rather than sent empty. `email_verified` is not asserted: the platform does not verify
 * addresses itself, and providers differ in whether they do.
 */
export function userInfoClaims(user: User, scopes: readonly string[]): UserInfoClaims {
  const claims: UserInfoClaims = { sub: user.id };
  if (scopes.includes('profile')) {
    if (user.name !== null) claims.name = user.name;
    const username = user.userName ?? user.email;
    if (username !== null) claims.preferred_username = username;
    claims.updated_at = Math.floor(user.updatedAt.getTime() / 1000);
  }
  if (scopes.includes('email') && user.email !== null) claims.email = user.email;
  return claims;
}

/** The UserInfo endpoint's answer, read from the user record as it is now. */
export class UserInfo {
  constructor(private readonly users: Pick<UserStore, 'findUser'>) {}

  /** A user deleted or deactivated since the token was issued gets nothing: `unauthenticated`. */
  async claimsFor(userId: string, scope: string): Promise<UserInfoClaims> {
    const user = await this.users.findUser(userId);
    if (!user?.active)
      throw new DomainError('unauthenticated', 'the user no longer exists or is deactivated');
    return userInfoClaims(user, parseScope(scope));
  }
}
