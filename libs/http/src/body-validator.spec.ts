import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { DomainError } from '@platform/domain';
import { TOKEN_BATCH_MAX_REQUESTS, TokenBatchDto } from '@platform/internal';
import { compileBodyValidator } from './body-validator';

const tokenBatchOf = compileBodyValidator(TokenBatchDto);
const one = () => ({ form: 'grant_type=client_credentials', request_id: 'req-1' });

function refusal(body: unknown): DomainError {
  try {
    tokenBatchOf(body);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('the body was accepted');
}

/** What the control plane's global ValidationPipe concludes (its options, class-validator). */
async function pipeAccepts(body: unknown): Promise<boolean> {
  if (typeof body !== 'object' || body === null) return false;
  const errors = await validate(plainToInstance(TokenBatchDto, body), {
    whitelist: true,
    forbidUnknownValues: true,
  });
  return errors.length === 0;
}

const REFUSED: Array<[string, unknown, RegExp]> = [
  ['no body', undefined, /^body must be object$/],
  ['a string', 'grant_type=client_credentials', /^body must be object$/],
  ['no requests', {}, /must have required property 'requests'/],
  ['requests that are not a list', { requests: 'grant_type=x' }, /^body\/requests must be array$/],
  ['an empty list', { requests: [] }, /^body\/requests must NOT have fewer than 1 items$/],
  [
    'one request too many',
    { requests: Array.from({ length: TOKEN_BATCH_MAX_REQUESTS + 1 }, one) },
    /^body\/requests must NOT have more than 64 items$/,
  ],
  [
    'a request without its form',
    { requests: [{ request_id: 'r' }] },
    /^body\/requests\/0 must have required property 'form'$/,
  ],
  [
    'a form that is not text',
    { requests: [{ ...one(), form: 42 }] },
    /^body\/requests\/0\/form must be string$/,
  ],
  [
    'a correlation id with spaces',
    { requests: [one(), { ...one(), request_id: 'has spaces' }] },
    /^body\/requests\/1\/request_id must match pattern/,
  ],
  [
    'a correlation id too long',
    { requests: [{ ...one(), request_id: 'a'.repeat(129) }] },
    /request_id must match pattern/,
  ],
  [
    'an authorization that is not text',
    { requests: [{ ...one(), authorization: ['Basic x'] }] },
    /authorization must be string/,
  ],
];

describe('compileBodyValidator (the token batch DTO)', () => {
  it('answers a valid body as it came, less the properties its DTO does not declare', () => {
    const body = {
      requests: [
        { ...one(), authorization: 'Basic YTpi', traceparent: '00-a-b-01', extra: 'x' },
        { ...one(), request_id: 'req-2' },
      ],
      extra: true,
    };
    expect(tokenBatchOf(body)).toEqual({
      requests: [
        { ...one(), authorization: 'Basic YTpi', traceparent: '00-a-b-01' },
        { ...one(), request_id: 'req-2' },
      ],
    });
  });

  it.each(REFUSED)('refuses %s as validation_failed, naming where', (_, body, message) => {
    const error = refusal(body);
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(message);
  });

  it('decides as the global ValidationPipe does, on every body above and a valid one', async () => {
    const bodies = [{ requests: [one()] }, ...REFUSED.map(([, body]) => body)];
    for (const body of bodies) {
      let accepted = true;
      try {
        tokenBatchOf(structuredClone(body));
      } catch {
        accepted = false;
      }
      expect([body, accepted]).toEqual([body, await pipeAccepts(body)]);
    }
  });
});
