import type { TokenClaims } from '@platform/grpc';
import { principalOfClaims, principalOfMessage } from './principals';

const claims = (overrides: Partial<TokenClaims> = {}): TokenClaims => ({
  iss: 'i',
  sub: 'user-1',
  aud: 'i',
  exp: 2,
  iat: 1,
  jti: 'j',
  client_id: 'portal',
  scope: 'users.read users.write',
  tenant: 'acme',
  roles: ['viewer'],
  grant_id: 'g',
  act: null,
  impersonation: '',
  cnf: null,
  ...overrides,
});

describe(principalOfClaims.name, () => {
  it('takes a token with a grant for a user of its tenant, with its roles and scopes', () => {
    expect(principalOfClaims(claims())).toEqual({
      kind: 'user',
      id: 'user-1',
      clientId: 'portal',
      tenant: 'acme',
      roles: ['viewer'],
      scopes: ['users.read', 'users.write'],
    });
  });

  it('takes a token without a grant for a service acting as its app', () => {
    const service = { sub: 'worker', client_id: 'worker', tenant: '', roles: [], grant_id: '' };

    expect(principalOfClaims(claims(service))).toEqual({
      kind: 'service',
      id: 'worker',
      clientId: 'worker',
      scopes: ['users.read', 'users.write'],
    });
  });

  it('takes a token without a grant but with a tenant for an app bound to that tenant', () => {
    const bound = { sub: 'worker', client_id: 'worker', tenant: 'acme', roles: [], grant_id: '' };

    expect(principalOfClaims(claims(bound))).toEqual({
      kind: 'service',
      id: 'worker',
      clientId: 'worker',
      scopes: ['users.read', 'users.write'],
      tenant: 'acme',
    });
  });

  it('confines a read-only impersonation token to reads, and only that one', () => {
    const act = { sub: 'support-1', client_id: 'console', act: null };

    expect(principalOfClaims(claims({ act, impersonation: 'read_only' }))).toMatchObject({
      kind: 'user',
      id: 'user-1',
      readOnly: true,
    });
    expect(principalOfClaims(claims({ act, impersonation: 'full' }))).not.toHaveProperty('readOnly');
  });

  it('works a frozen claims object out once', () => {
    const frozen = Object.freeze(claims());

    expect(principalOfClaims(frozen)).toBe(principalOfClaims(frozen));
  });

  it('does not remember claims that could still change', () => {
    const open = claims();
    const before = principalOfClaims(open);
    open.roles = ['tenant_admin'];

    expect(principalOfClaims(open)).not.toBe(before);
    expect(principalOfClaims(open)).toMatchObject({ roles: ['tenant_admin'] });
  });
});

describe(principalOfMessage.name, () => {
  it('checks and converts a user principal', () => {
    expect(
      principalOfMessage({
        kind: 'user',
        id: 'u',
        client_id: 'c',
        tenant: 'acme',
        roles: ['user'],
        scopes: [],
      }),
    ).toEqual({ kind: 'user', id: 'u', clientId: 'c', tenant: 'acme', roles: ['user'], scopes: [] });
  });

  it.each([
    ['no principal', undefined, /principal is required/],
    ['an unknown kind', { kind: 'robot', id: 'r' }, /kind/],
    ['no id', { kind: 'service', id: '' }, /id/],
    ['a user without tenant', { kind: 'user', id: 'u', tenant: '' }, /tenant/],
  ])('refuses %s as invalid_argument', (_case, message, reason) => {
    expect(() => principalOfMessage(message)).toThrow(
      expect.objectContaining({ code: 'invalid_argument', message: expect.stringMatching(reason) }),
    );
  });
});
