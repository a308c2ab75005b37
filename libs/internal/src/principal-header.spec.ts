import { callerPrincipal, encodePrincipal } from './principal-header';

const userClaims = {
  sub: 'user-1',
  client_id: 'portal',
  scope: 'users.read',
  tenant: 'acme',
  roles: ['tenant_admin'],
  grant_id: 'grant-1',
};
const serviceClaims = { sub: 'worker', client_id: 'worker', scope: 'jobs.read', tenant: '', roles: [] };

describe('callerPrincipal', () => {
  it('describes a user token as a user of its tenant with its roles', () => {
    expect(callerPrincipal(userClaims)).toEqual({
      kind: 'user',
      id: 'user-1',
      client_id: 'portal',
      tenant: 'acme',
      roles: ['tenant_admin'],
    });
  });

  it('describes a service token as its app, without tenant or roles', () => {
    expect(callerPrincipal(serviceClaims)).toEqual({
      kind: 'service',
      id: 'worker',
      client_id: 'worker',
      tenant: '',
      roles: [],
    });
  });
});

describe('callerPrincipal of a bound app', () => {
  it('describes it as its app in its tenant, without roles', () => {
    expect(callerPrincipal({ ...serviceClaims, tenant: 'acme' })).toEqual({
      kind: 'service',
      id: 'worker',
      client_id: 'worker',
      tenant: 'acme',
      roles: [],
    });
  });
});

describe('encodePrincipal', () => {
  it('is base64url JSON of the principal with the token scope', () => {
    const decoded: unknown = JSON.parse(
      Buffer.from(encodePrincipal(userClaims), 'base64url').toString('utf8'),
    );

    expect(decoded).toEqual({ ...callerPrincipal(userClaims), scope: 'users.read' });
  });
});

describe('callerPrincipal of an impersonation or delegated token', () => {
  it('names the current actor, so what the caller does is audited with it', () => {
    const act = { sub: 'engineer-1', client_id: 'console', act: { sub: 'earlier' } };
    expect(callerPrincipal({ ...userClaims, act })).toMatchObject({ id: 'user-1', acted_by: 'engineer-1' });
    expect(callerPrincipal({ ...userClaims, act: null })).not.toHaveProperty('acted_by');
  });
});
