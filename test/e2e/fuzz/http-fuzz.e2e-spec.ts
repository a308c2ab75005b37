import fc from 'fast-check';
import { adminToken, discover } from '../../support/oauth';
import { platformDatabases } from '../../support/databases';
import { startPlatform, type TestPlatform } from '../../support/platform';

type ErrorFormat = 'oauth' | 'problem' | 'page' | 'scim';

/** Operations of the published document, as fast-check picks them. */
interface Operation {
  method: string;
  path: string;
  /** The error formats the document gives each refusal status. */
  errors: Record<string, ErrorFormat[]>;
}

type DocumentedOperation = {
  responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
};

function errorFormatsOf(operation: DocumentedOperation): Operation['errors'] {
  const formats: Operation['errors'] = {};
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    if (!status.startsWith('4')) continue;
    formats[status] = Object.entries(response.content ?? {}).map(([type, media]) =>
      type === 'text/html'
        ? 'page'
        : type === 'application/scim+json'
          ? 'scim'
          : media.schema?.$ref?.endsWith('/OAuthError')
            ? 'oauth'
            : 'problem',
    );
  }
  return formats;
}

/** Markers of what must never reach a caller: a stack frame, SQL, a module path. */
const LEAKS = [
  /\n\s+at [\w.<>]+ \(/,
  /node_modules/,
  /\b(SELECT|INSERT INTO|UPDATE \w+ SET)\b/,
  /QueryFailedError/,
  /TypeError|ReferenceError/,
];

const junk = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '%',
    '%zz',
    '../../etc/passwd',
    "' OR 1=1 --",
    '\u0000',
    '\uFFFF',
    '🦄',
    'null',
    '-1',
    '1e309',
    '[]',
    '{}',
  ),
  fc.integer().map(String),
  fc.nat({ max: 9_000 }).map((n) => 'x'.repeat(n)),
);

const body = fc.oneof(
  fc.record({
    type: fc.constant('application/json'),
    data: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  }),
  fc.record({
    type: fc.constant('application/json'),
    data: fc.constantFrom('{', '{"a":', '[1,', 'nul', '"\\ud800"', '{"__proto__":{"x":1}}'),
  }),
  fc.record({
    type: fc.constant('application/x-www-form-urlencoded'),
    data: fc
      .dictionary(
        fc.oneof(
          fc.constantFrom(
            'grant_type',
            'client_id',
            'client_secret',
            'token',
            'scope',
            'code',
            'refresh_token',
          ),
          fc.string({ maxLength: 10 }),
        ),
        junk,
      )
      .map((d) => new URLSearchParams(d).toString()),
  }),
  fc.record({
    type: fc.constantFrom(
      'text/plain',
      'application/xml',
      'multipart/form-data',
      'application/json; charset=latin1',
    ),
    data: junk,
  }),
  fc.record({
    type: fc.constant('application/json'),
    data: fc.constant(Buffer.from([0xff, 0xfe, 0xc3, 0x28]).toString('latin1')),
  }),
  fc.record({ type: fc.constant('application/json'), data: fc.constant(`{"a":"${'y'.repeat(70_000)}"}`) }),
);

/** A value an arbitrary draws. */
type Drawn<A> = A extends fc.Arbitrary<infer T> ? T : never;

/**
 * Draws per run: the full count on SQLite; on Postgres a fresh random sample of half as many
 * each run (fast-check's seed, printed with a failure to replay it), enough to try every route.
 */
const RUNS = { SQLite: 1_500, Postgres: 750 };

/**
 * Malformed, oversized, wrongly typed and wrongly encoded input to every route of the OpenAPI
 * document, with and without credentials. Never a 5xx, the route's own error format, nothing
 * leaked, and the platform healthy afterwards. fast-check shrinks a failure to a minimal request.
 */
describe.each(platformDatabases('the HTTP fuzz suite'))(
  'fuzzing every public HTTP route on $name',
  (database) => {
    let platform: TestPlatform;
    let drop: () => Promise<void>;
    let operations: Operation[];
    let admin: string;
    const secrets: string[] = [];

    beforeAll(async () => {
      const db = await database.create();
      drop = db.drop;
      platform = await startPlatform({ withIdentityProvider: true, ...(db.url && { databaseUrl: db.url }) });
      admin = await adminToken(await discover(platform), platform);
      secrets.push(platform.admin.clientSecret, platform.internalToken, admin);
      const document = (await (await fetch(`${platform.baseUrl}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, DocumentedOperation>>;
      };
      operations = Object.entries(document.paths).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
          .map(([method, operation]) => ({
            method: method.toUpperCase(),
            path,
            errors: errorFormatsOf(operation),
          })),
      );
    });
    afterAll(async () => {
      await platform?.stop();
      await drop?.();
    });

    it('answers every request with a 4xx or success in the route’s format, never a 5xx or a leak', async () => {
      expect(operations.length).toBeGreaterThan(30);
      const request = fc.record({
        operation: fc.constantFrom(...operations),
        params: fc.array(junk, { minLength: 3, maxLength: 3 }),
        query: fc.dictionary(
          fc.oneof(
            fc.constantFrom('limit', 'after', 'since', 'state', 'client_id', 'from', 'redirect_uri'),
            fc.string({ maxLength: 8 }),
          ),
          junk,
          { maxKeys: 4 },
        ),
        body: fc.option(body, { nil: undefined }),
        auth: fc.constantFrom('none', 'admin', 'garbage-bearer', 'garbage-basic'),
      });
      const statuses = new Map<string, Set<number>>();
      await fc.assert(
        fc.asyncProperty(request, async ({ operation, params, query, body: sent, auth }) => {
          let index = 0;
          const path = operation.path.replace(/\{[^}]+\}/g, () =>
            encodeURIComponent(params[index++ % params.length] || 'x'),
          );
          const url = `${platform.baseUrl}${path}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`;
          const headers: Record<string, string> = {};
          if (auth === 'admin') headers.authorization = `Bearer ${admin}`;
          if (auth === 'garbage-bearer') headers.authorization = 'Bearer eyJhbGciOiJub25lIn0.e30.';
          if (auth === 'garbage-basic') headers.authorization = 'Basic Og==';
          const withBody = operation.method !== 'GET' && operation.method !== 'DELETE' && sent !== undefined;
          if (withBody) headers['content-type'] = sent.type;
          const response = await fetch(url, {
            method: operation.method,
            headers,
            body: withBody ? sent.data : undefined,
            redirect: 'manual',
            signal: AbortSignal.timeout(10_000),
          });
          const text = await response.text();
          const key = `${operation.method} ${operation.path}`;
          statuses.set(key, (statuses.get(key) ?? new Set()).add(response.status));
          const where = `${operation.method} ${operation.path} -> ${response.status}: ${text.slice(0, 300)}`;
          expect({ where, serverError: response.status >= 500 }).toEqual({ where, serverError: false });
          for (const leak of LEAKS) expect({ where, leak: leak.test(text) }).toEqual({ where, leak: false });
          for (const secret of secrets)
            expect({ where, secret: text.includes(secret) }).toEqual({ where, secret: false });
          if (response.status >= 400) expectErrorFormat(operation, response, text, where);
        }),
        {
          numRuns: RUNS[database.name],
          // Each operation once as an administrator with no body, before the random draws: 750
          // draws over about 100 operations missed one in about one run of fifteen.
          examples: operations.map((operation): [Drawn<typeof request>] => [
            { operation, params: ['x', 'x', 'x'], query: {}, body: undefined, auth: 'admin' },
          ]),
        },
      );
      // Every operation was tried.
      expect([...statuses.keys()].sort()).toEqual(operations.map((o) => `${o.method} ${o.path}`).sort());
      if (process.env.FUZZ_REPORT)
        console.log([...statuses].map(([k, v]) => `${k}: ${[...v].sort().join(' ')}`).join('\n'));
    }, 240_000);

    it('is still healthy afterwards', async () => {
      const health = await fetch(`${platform.baseUrl}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok' });
    });
  },
);

/**
 * The answer is in a format the document gives that status on that route; a status it does not
 * document (413, 414, 415, 429...) may be either of the platform's JSON error formats.
 */
function expectErrorFormat(operation: Operation, response: Response, text: string, where: string): void {
  const type = response.headers.get('content-type') ?? '';
  const format: ErrorFormat | 'other' = type.startsWith('text/html')
    ? 'page'
    : type.startsWith('application/problem+json')
      ? 'problem'
      : type.startsWith('application/scim+json')
        ? 'scim'
        : type.startsWith('application/json') &&
            typeof (JSON.parse(text) as { error?: unknown }).error === 'string'
          ? 'oauth'
          : 'other';
  const documented = operation.errors[String(response.status)];
  // Refused before any route runs, as the document's "Limits" says: any of the JSON formats.
  const beforeRouting = response.status === 400 && text.includes('Body is not valid JSON');
  const allowed: ErrorFormat[] =
    documented?.length && !beforeRouting ? documented : ['problem', 'oauth', 'scim'];
  expect({ where, allowed: allowed.includes(format as ErrorFormat) }).toEqual({ where, allowed: true });
  if (format === 'scim') {
    // RFC 7644 section 3.12: the error schema, its status as a string.
    expect({ where, error: JSON.parse(text) as unknown }).toEqual({
      where,
      error: expect.objectContaining({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
        status: String(response.status),
      }),
    });
  }
  if (format === 'problem') {
    expect({ where, status: (JSON.parse(text) as { status?: unknown }).status }).toEqual({
      where,
      status: response.status,
    });
  }
}
