/**
 * Every non-2xx answer becomes an error that keeps the status, the headers and the body as they
 * came: the spec's "clients report the status and body". `OAuthProtocolError` for RFC 6749
 * bodies (token, introspect, revoke), `ProblemError` for RFC 9457 bodies (everything else),
 * `PlatformError` itself for anything else (a proxy's HTML page, an empty 502).
 */
export class PlatformError extends Error {
  override name = 'PlatformError';

  constructor(
    message: string,
    readonly status: number,
    /** The parsed JSON body, or the text when it was not JSON ('' when empty). */
    readonly body: unknown,
    readonly headers: Headers,
  ) {
    super(message);
  }

  /** The `WWW-Authenticate` challenge, if any (RFC 6750 on Bearer routes, Basic on the token endpoint). */
  get wwwAuthenticate(): string | undefined {
    return this.headers.get('www-authenticate') ?? undefined;
  }
}

/** An RFC 6749 section 5.2 error body: `{ error, error_description? , error_uri? }`. */
export interface OAuthErrorBody {
  error: string;
  error_description?: string;
  error_uri?: string;
}

export class OAuthProtocolError extends PlatformError {
  override name = 'OAuthProtocolError';
  /** `invalid_client`, `invalid_grant`, `invalid_scope`, ... */
  readonly error: string;
  readonly error_description: string | undefined;

  constructor(status: number, body: OAuthErrorBody, headers: Headers) {
    super(
      `${status} ${body.error}${body.error_description ? `: ${body.error_description}` : ''}`,
      status,
      body,
      headers,
    );
    this.error = body.error;
    this.error_description = body.error_description;
  }
}

/** RFC 9457 problem details, with any extension members (the platform adds RFC 6750 `error`). */
export interface ProblemDetails {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
  [extension: string]: unknown;
}

export class ProblemError extends PlatformError {
  override name = 'ProblemError';

  constructor(
    status: number,
    readonly problem: ProblemDetails,
    headers: Headers,
  ) {
    super(
      `${status} ${problem.title ?? 'Error'}${problem.detail ? `: ${problem.detail}` : ''}`,
      status,
      problem,
      headers,
    );
  }

  get type(): string {
    return this.problem.type ?? 'about:blank';
  }

  get title(): string | undefined {
    return this.problem.title;
  }

  get detail(): string | undefined {
    return this.problem.detail;
  }
}

/** Reads a non-2xx response once and turns it into the matching error. */
export async function errorFromResponse(response: Response): Promise<PlatformError> {
  const text = await response.text().catch(() => '');
  const contentType = response.headers.get('content-type') ?? '';
  const json = parseJson(text);
  if (isObject(json) && /^application\/problem\+json/i.test(contentType)) {
    return new ProblemError(response.status, json, response.headers);
  }
  if (isObject(json) && typeof json.error === 'string') {
    return new OAuthProtocolError(response.status, json as unknown as OAuthErrorBody, response.headers);
  }
  const body = json === undefined ? text : json;
  const summary = text.length > 200 ? `${text.slice(0, 200)}...` : text;
  return new PlatformError(
    `${response.status} ${response.statusText}${summary ? `: ${summary}` : ''}`.trim(),
    response.status,
    body,
    response.headers,
  );
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
