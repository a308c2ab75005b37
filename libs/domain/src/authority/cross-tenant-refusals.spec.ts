import { AuditTrail } from '../audit/audit-trail';
import type { AuditEventInput } from '../audit/audit-record';
import { ManualClock } from '../clock';
import type { PolicyPrincipal } from '../policy/policy';
import { CrossTenantRefusalAuditor } from './cross-tenant-refusals';

const viewer: PolicyPrincipal = {
  kind: 'user',
  id: 'vera',
  clientId: 'portal',
  tenant: 'globex',
  roles: ['viewer'],
  scopes: ['jobs.read'],
};
const bound: PolicyPrincipal = {
  kind: 'service',
  id: 'sync',
  clientId: 'sync',
  scopes: [],
  tenant: 'globex',
};

function setUp(settings = { windowMs: 60_000, maxTracked: 100 }) {
  const clock = new ManualClock(new Date('2026-11-27T12:00:00Z'));
  const written: AuditEventInput[] = [];
  const audit = {
    append: async (event: AuditEventInput) => {
      written.push(event);
      return {} as never;
    },
  };
  const auditor = new CrossTenantRefusalAuditor(audit, new AuditTrail(clock), clock, settings);
  return { clock, written, auditor };
}

describe(CrossTenantRefusalAuditor.name, () => {
  it('records the refusal in the log of the tenant reached into, naming the actor and both tenants', async () => {
    const { written, auditor } = setUp();
    await auditor.refused({ principal: viewer, action: 'jobs.read', tenant: 'acme', decisionId: 'd1' });
    expect(written).toEqual([
      expect.objectContaining({
        tenant: 'acme',
        actorKind: 'user',
        actorId: 'vera',
        action: 'authorization.cross_tenant_refused',
        outcome: 'denied',
        target: 'jobs.read',
        attributes: {
          action: 'jobs.read',
          actor_tenant: 'globex',
          client_id: 'portal',
          refusals: 1,
          decision_id: 'd1',
        },
      }),
    ]);
  });

  it('folds a flood into one record per window, counted in the next', async () => {
    const { clock, written, auditor } = setUp();
    for (let i = 0; i < 500; i += 1)
      await auditor.refused({ principal: bound, action: 'secrets.read', tenant: 'acme' });
    expect(written).toHaveLength(1);
    clock.advance(60_000);
    await auditor.refused({ principal: bound, action: 'secrets.read', tenant: 'acme' });
    expect(written).toHaveLength(2);
    expect(written[1]).toMatchObject({ actorKind: 'app', actorId: 'sync', attributes: { refusals: 500 } });
  });

  it('keeps separate windows per actor, action and tenant', async () => {
    const { written, auditor } = setUp();
    await auditor.refused({ principal: bound, action: 'secrets.read', tenant: 'acme' });
    await auditor.refused({ principal: bound, action: 'users.read', tenant: 'acme' });
    await auditor.refused({ principal: bound, action: 'users.read', tenant: 'initech' });
    await auditor.refused({ principal: viewer, action: 'users.read', tenant: 'initech' });
    expect(written).toHaveLength(4);
  });

  it('stays bounded under many actors, telling the next record how many went unrecorded', async () => {
    const { clock, written, auditor } = setUp({ windowMs: 60_000, maxTracked: 10 });
    for (let i = 0; i < 50; i += 1) {
      await auditor.refused({
        principal: { ...bound, clientId: `app-${i}`, id: `app-${i}` },
        action: 'users.read',
        tenant: 'acme',
      });
    }
    expect(written).toHaveLength(10);
    clock.advance(60_000);
    await auditor.refused({ principal: viewer, action: 'users.read', tenant: 'acme' });
    expect(written).toHaveLength(11);
    expect(written[10].attributes).toMatchObject({ unrecorded_refusals: 40 });
  });
});
