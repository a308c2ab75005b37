import { BearerError } from '@platform/domain';
import { MissingBearerTokenError, readBearerToken } from './bearer';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl';

function refusal(authorization: string | string[] | undefined): BearerError {
  try {
    readBearerToken(authorization);
  } catch (error) {
    if (error instanceof BearerError) return error;
    throw error;
  }
  throw new Error('the header was accepted');
}

describe('readBearerToken (RFC 6750 section 2.1)', () => {
  it.each([
    ['Bearer', `Bearer ${TOKEN}`, TOKEN],
    ['the scheme in any case', `bEaReR ${TOKEN}`, TOKEN],
    ['spaces and tabs around and between', ` \tBearer  \t${TOKEN}  `, TOKEN],
    ['every b64token character, and padding', 'Bearer aZ09-._~+/==', 'aZ09-._~+/=='],
    ['one header in a list', [`Bearer ${TOKEN}`], TOKEN],
  ])('reads the token: %s', (_, header, token) => {
    expect(readBearerToken(header)).toBe(token);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['only spaces', '   '],
    ['another scheme', `Basic ${TOKEN}`],
    ['a scheme that starts like Bearer', `Bearerx ${TOKEN}`],
  ])('%s: no credential (bare challenge)', (_, header) => {
    expect(refusal(header)).toBeInstanceOf(MissingBearerTokenError);
  });

  it.each([
    ['the scheme alone', 'Bearer'],
    ['the scheme and spaces', 'Bearer   '],
    ['two tokens', `Bearer ${TOKEN} ${TOKEN}`],
    ['a character outside b64token', 'Bearer abc$def'],
    ['padding inside the token', 'Bearer ab=cd'],
    ['a comma-joined second credential', `Bearer ${TOKEN}, Basic abc`],
  ])('%s: invalid_request', (_, header) => {
    const error = refusal(header);
    expect(error).not.toBeInstanceOf(MissingBearerTokenError);
    expect(error.code).toBe('invalid_request');
  });

  it('refuses two Authorization headers', () => {
    const error = refusal([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    expect(error.code).toBe('invalid_request');
    expect(error.description).toMatch(/one Authorization header/);
  });
});
