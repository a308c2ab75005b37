import { Injectable } from '@nestjs/common';
import {
  type CreateSessionDto,
  internalPathOf,
  SESSION_OPERATIONS,
  type SessionDto,
} from '@platform/contract';
import { DomainError } from '@platform/domain';
import { ControlPlaneClient } from './control-plane.client';
import { isRecord, isString, postInternalJson, unexpectedAnswer } from './internal-json';

/** The signed-in person, as the control plane keeps them. */
export interface SessionUser {
  id: string;
  email?: string;
  name?: string;
  tenant: string;
  roles: string[];
}

/**
 * What the identity provider vouched for, passed on as the provider signed it: the control plane
 * verifies the ID token itself and reads the user's tenant and roles from it alone.
 */
export interface VerifiedIdentity {
  idToken: string;
  /** The UserInfo answer (unsigned: the control plane takes only `email` and `name` from it). */
  userInfo: Record<string, unknown>;
}

export interface ResolvedSession {
  user: SessionUser;
  authTime: Date;
}

export interface NewSession {
  /** The opaque value for the session cookie. */
  session: string;
  expiresAt: Date;
  user: SessionUser;
}

/**
 * Browser sessions, owned by the control plane (`/internal/v1/sessions*`, docs/internal-api.md):
 * the backend only carries the opaque value in a cookie.
 */
@Injectable()
export class SessionsClient {
  constructor(private readonly controlPlane: ControlPlaneClient) {}

  async create(identity: VerifiedIdentity): Promise<NewSession> {
    const path = `/${internalPathOf(SESSION_OPERATIONS.create)}`;
    const { status, body } = await postInternalJson(this.controlPlane, path, {
      id_token: identity.idToken,
      userinfo: identity.userInfo,
    } satisfies CreateSessionDto);
    // The user was deprovisioned (SCIM `active: false`): no session, and the browser is told so.
    if (status === 403) throw new DomainError('forbidden', 'This account is deactivated.');
    if (status !== 201 && status !== 200) return unexpectedAnswer(path, status);
    return sessionOf(path, status, body);
  }

  /**
   * The session's user and when they signed in; undefined when the control plane does not know
   * the session or it expired.
   */
  async resolve(session: string): Promise<ResolvedSession | undefined> {
    const path = `/${internalPathOf(SESSION_OPERATIONS.resolve)}`;
    const { status, body } = await postInternalJson(
      this.controlPlane,
      path,
      { session } satisfies SessionDto,
      {
        answersUnauthorized: true,
      },
    );
    if (status === 401) return undefined;
    const user = status === 200 && isRecord(body) ? toUser(body.user) : undefined;
    const authTime = isRecord(body) ? toDate(body.auth_time) : undefined;
    if (user === undefined || authTime === undefined) return unexpectedAnswer(path, status);
    return { user, authTime };
  }

  /** Ends the session (logout); unknown sessions too. */
  async end(session: string): Promise<void> {
    const path = `/${internalPathOf(SESSION_OPERATIONS.end)}`;
    const { status } = await postInternalJson(this.controlPlane, path, { session } satisfies SessionDto, {
      answersUnauthorized: true,
    });
    if (status >= 300 && status !== 401) unexpectedAnswer(path, status);
  }
}

/** A new session as the control plane answers it (`OpenedSessionDto`): the OIDC and the SAML logins'. */
export function sessionOf(path: string, status: number, body: unknown): NewSession {
  const answer = isRecord(body) ? body : {};
  const expiresAt = toDate(answer.expires_at);
  const user = toUser(answer.user);
  if (!isString(answer.session) || answer.session === '' || expiresAt === undefined || user === undefined) {
    return unexpectedAnswer(path, status);
  }
  return { session: answer.session, expiresAt, user };
}

function toUser(value: unknown): SessionUser | undefined {
  if (!isRecord(value) || !isString(value.id)) return undefined;
  return {
    id: value.id,
    ...(isString(value.email) && { email: value.email }),
    ...(isString(value.name) && { name: value.name }),
    tenant: isString(value.tenant) ? value.tenant : '',
    roles: Array.isArray(value.roles) ? value.roles.filter(isString) : [],
  };
}

/** `expires_at` as Unix seconds or an ISO 8601 timestamp. */
function toDate(value: unknown): Date | undefined {
  const date =
    typeof value === 'number' ? new Date(value * 1000) : isString(value) ? new Date(value) : undefined;
  return date !== undefined && !Number.isNaN(date.getTime()) ? date : undefined;
}
