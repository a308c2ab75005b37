import { STATUS_CODES } from 'node:http';

/** RFC 9457 problem details. `type` stays `about:blank`, so `title` is the HTTP status phrase. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  /** RFC 6750 error code, added on Bearer-protected routes. */
  error?: string;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function problem(
  status: number,
  title: string = statusTitle(status),
  detail?: string,
): ProblemDetails {
  return detail === undefined
    ? { type: 'about:blank', title, status }
    : { type: 'about:blank', title, status, detail };
}

export function statusTitle(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}
