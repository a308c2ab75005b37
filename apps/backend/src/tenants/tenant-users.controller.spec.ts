import type { TokenClaims } from '@platform/grpc';
import type { AuthorizedRequest } from '../auth/permission';
import { principalHeader } from '../auth/permission';

const claims = (overrides: Partial<TokenClaims>): TokenClaims => ({
  iss: 'https://auth.example',
  sub: 'user-1',
  aud: 'https://auth.example',
  exp: 2,
  iat: 1,
  jti: 'j',
  client_id: 'console',
  scope: 'users.read',
  tenant: 'acme',
  roles: ['viewer'],
  grant_id: 'g',
  act: null,
  impersonation: '',
  cnf: null,
  ...overrides,
});

const decode = (header: string): unknown => JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));

describe(principalHeader.name, () => {
  it('names a forwarded user with tenant, roles and the token scope', () => {
    const request = { claims: claims({}) } as AuthorizedRequest;
    expect(decode(principalHeader(request))).toEqual({
      kind: 'user',
      id: 'user-1',
      client_id: 'console',
      tenant: 'acme',
      roles: ['viewer'],
      scope: 'users.read',
    });
  });

  it('names a service token as its app, without roles', () => {
    const request = {
      claims: claims({ sub: 'svc', client_id: 'svc', tenant: '', roles: [], grant_id: '', scope: 'admin.*' }),
    } as AuthorizedRequest;
    expect(decode(principalHeader(request))).toMatchObject({
      kind: 'service',
      id: 'svc',
      roles: [],
      scope: 'admin.*',
    });
  });
});
