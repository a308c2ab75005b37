import type { SessionStamp } from '@platform/domain';

/** The `sid` and `auth_time` columns a code and a refresh token share. */
interface SessionColumns {
  sid: string | null;
  authTime: Date | null;
}

export function sessionColumns(session: SessionStamp | undefined): SessionColumns {
  return { sid: session?.sid ?? null, authTime: session?.authTime ?? null };
}

export function sessionOf(row: SessionColumns): { session?: SessionStamp } {
  return row.sid === null || row.authTime === null ? {} : { session: { sid: row.sid, authTime: row.authTime } };
}
