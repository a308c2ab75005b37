import { DomainError } from '@platform/domain';
import { readPrincipal } from './principal';

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe(readPrincipal.name, () => {
  it('reads a user principal with its tenant, roles and scopes', () => {
    expect(
      readPrincipal(
        encode({
          kind: 'user',
          id: 'u1',
          client_id: 'console',
          tenant: 'acme',
          roles: ['viewer'],
          scope: 'users.read jobs.*',
        }),
      ),
    ).toEqual({
      kind: 'user',
      id: 'u1',
      clientId: 'console',
      tenant: 'acme',
      roles: ['viewer'],
      scopes: ['users.read', 'jobs.*'],
    });
  });

  it('reads who acts for the caller, and refuses an acted_by that is not a string', () => {
    const user = { kind: 'user', id: 'u1', client_id: 'console', tenant: 'acme', roles: [], scope: '' };
    expect(readPrincipal(encode({ ...user, acted_by: 'engineer' }))).toMatchObject({ actedBy: 'engineer' });
    expect(() => readPrincipal(encode({ ...user, acted_by: 7 }))).toThrow(DomainError);
  });

  it('reads a service principal: an empty tenant is none', () => {
    expect(
      readPrincipal(
        encode({ kind: 'service', id: 'svc', client_id: 'svc', tenant: '', roles: [], scope: 'admin.*' }),
      ),
    ).toMatchObject({
      kind: 'service',
      tenant: null,
      scopes: ['admin.*'],
    });
  });

  it.each([
    ['missing', undefined],
    ['not base64url JSON', 'nope'],
    ['of an unknown kind', encode({ kind: 'robot', id: 'x', client_id: 'x' })],
    ['without an id', encode({ kind: 'user', client_id: 'x' })],
    ['with roles that are not strings', encode({ kind: 'user', id: 'x', client_id: 'x', roles: [1] })],
  ])('refuses a header %s as validation_failed', (_, header) => {
    let error: unknown;
    try {
      readPrincipal(header);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('validation_failed');
  });
});
