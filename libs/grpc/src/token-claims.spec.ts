import { InvalidClaimError, MAX_ACTOR_DEPTH, tokenClaimsOf } from './token-claims';

const payload = (claims: Record<string, unknown> = {}) => ({
  iss: 'https://issuer.example',
  aud: 'https://issuer.example',
  sub: 'user-1',
  exp: 2_000_000_000,
  iat: 1_999_996_400,
  jti: 'jti-1',
  client_id: 'portal',
  ...claims,
});

/** An actor chain `depth` actors long. */
const chain = (depth: number): Record<string, unknown> =>
  depth === 1 ? { sub: 'actor-1' } : { sub: `actor-${depth}`, act: chain(depth - 1) };

describe(tokenClaimsOf.name, () => {
  it('answers no actor and no impersonation for a token without them', () => {
    expect(tokenClaimsOf(payload())).toMatchObject({ act: null, impersonation: '' });
  });

  it('maps the actor chain, nested, with client_id empty where the token names none', () => {
    const act = { sub: 'support-1', client_id: 'console', act: { sub: 'gateway' } };

    const claims = tokenClaimsOf(payload({ act, impersonation: 'full' }));

    expect(claims.act).toEqual({
      sub: 'support-1',
      client_id: 'console',
      act: { sub: 'gateway', client_id: '', act: null },
    });
    expect(claims.impersonation).toBe('full');
    expect(Object.isFrozen(claims.act)).toBe(true);
    expect(Object.isFrozen(claims.act?.act)).toBe(true);
  });

  it.each(['full', 'read_only'])('accepts the impersonation mode %s', (impersonation) => {
    expect(tokenClaimsOf(payload({ impersonation })).impersonation).toBe(impersonation);
  });

  it(`accepts a chain of ${MAX_ACTOR_DEPTH} actors and refuses a longer one`, () => {
    expect(tokenClaimsOf(payload({ act: chain(MAX_ACTOR_DEPTH) })).act?.sub).toBe(`actor-${MAX_ACTOR_DEPTH}`);
    expect(() => tokenClaimsOf(payload({ act: chain(MAX_ACTOR_DEPTH + 1) }))).toThrow(
      new InvalidClaimError('invalid claim act: chain too deep'),
    );
  });

  it.each([
    ['an impersonation mode it does not know', { impersonation: 'admin' }, 'invalid claim impersonation'],
    ['an empty impersonation mode', { impersonation: '' }, 'invalid claim impersonation'],
    ['an impersonation mode that is not a string', { impersonation: true }, 'invalid claim impersonation'],
    ['an actor that is not an object', { act: 'support-1' }, 'invalid claim act'],
    ['an actor list', { act: [{ sub: 'support-1' }] }, 'invalid claim act'],
    ['a null actor', { act: null }, 'invalid claim act'],
    ['an actor without a subject', { act: { client_id: 'console' } }, 'invalid claim act.sub'],
    ['an actor with an empty subject', { act: { sub: '' } }, 'invalid claim act.sub'],
    [
      'an actor whose client_id is not a string',
      { act: { sub: 'a', client_id: 7 } },
      'invalid claim act.client_id',
    ],
    [
      'a nested actor without a subject',
      { act: { sub: 'a', act: { client_id: 'c' } } },
      'invalid claim act.sub',
    ],
  ])('refuses %s', (_, claims, message) => {
    expect(() => tokenClaimsOf(payload(claims))).toThrow(new InvalidClaimError(message));
  });
});
