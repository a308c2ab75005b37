import type { SessionStamp } from '../sessions/session';

/** The `prompt` values the platform honours (Core section 3.1.2.1); `select_account` is not one. */
export const PROMPT_VALUES = ['none', 'login', 'consent'] as const;
export type Prompt = (typeof PROMPT_VALUES)[number];

/** The OpenID Connect parameters of an authorization request, once read. */
export interface OidcRequest {
  prompt: Prompt[];
  /** Seconds a login may be old (Core section 3.1.2.1); absent: any age. */
  maxAge?: number;
}

/** Why a parameter is refused: an `invalid_request` the client is told through its redirect URI. */
export type OidcParameterProblem = string;

/** Reads `prompt` and `max_age`; a problem when either is malformed. */
export function readOidcParameters(params: {
  prompt?: string;
  max_age?: string;
}): OidcRequest | OidcParameterProblem {
  const prompt = (params.prompt ?? '').split(' ').filter((value) => value.length > 0);
  const unknown = prompt.find((value) => !(PROMPT_VALUES as readonly string[]).includes(value));
  if (unknown !== undefined) return `prompt value ${unknown} is not supported`;
  if (prompt.includes('none') && prompt.length > 1) return 'prompt none cannot be combined with other values';
  if (params.max_age === undefined) return { prompt: prompt as Prompt[] };
  if (!/^\d{1,9}$/.test(params.max_age)) return 'max_age must be a non-negative number of seconds';
  return { prompt: prompt as Prompt[], maxAge: Number(params.max_age) };
}

/**
 * What the browser's session is worth to this request: `use` it, send the user to `login` again,
 * or refuse with `login_required` (prompt=none, or an `id_token_hint` naming someone else: Core
 * section 3.1.2.1 says to answer an error rather than sign the hinted user in as another).
 */
export type SessionVerdict = 'use' | 'login' | 'login_required';

export function sessionVerdict(
  request: OidcRequest & { hintedSubject?: string },
  session: (Pick<SessionStamp, 'authTime'> & { userId: string }) | undefined,
  now: Date,
): SessionVerdict {
  const silent = request.prompt.includes('none');
  if (session === undefined) return silent ? 'login_required' : 'login';
  if (request.hintedSubject !== undefined && request.hintedSubject !== session.userId)
    return 'login_required';
  const tooOld =
    request.maxAge !== undefined && now.getTime() - session.authTime.getTime() > request.maxAge * 1000;
  if (request.prompt.includes('login') || tooOld) return silent ? 'login_required' : 'login';
  return 'use';
}

/**
 * The authorization request to come back to after a forced login: without `login` in `prompt`
 * and without `max_age`, which the login just satisfied (kept, `max_age=0` or a slow login would
 * send the user to log in forever). The ID token's `auth_time` still tells the client when it was.
 */
export function afterForcedLogin<P extends { prompt?: string; max_age?: string }>(params: P): P {
  const rest = (params.prompt ?? '').split(' ').filter((value) => value.length > 0 && value !== 'login');
  return { ...params, prompt: rest.length === 0 ? undefined : rest.join(' '), max_age: undefined };
}
