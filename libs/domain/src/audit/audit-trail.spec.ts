import { ManualClock } from '../clock';
import { TEST_START } from '../testing/in-memory-stores';
import type { ActingPrincipal } from '../users/user-administration';
import { auditActorOf, AuditTrail } from './audit-trail';

const ada: ActingPrincipal = {
  kind: 'user',
  id: 'ada',
  clientId: 'console',
  tenant: 'acme',
  roles: ['user'],
  scopes: ['jobs.write'],
};

describe(AuditTrail.name, () => {
  const trail = new AuditTrail(new ManualClock(TEST_START));

  it('names the caller as the actor', () => {
    const record = trail.record({
      actor: auditActorOf(ada),
      action: 'job.submitted',
      attributes: { job: 'j1' },
    });
    expect(record).toMatchObject({ actorKind: 'user', actorId: 'ada', attributes: { job: 'j1' } });
  });

  it('names who acted for the caller (an impersonator) beside it, in acted_by', () => {
    const impersonated = { ...ada, actedBy: 'engineer' };
    const record = trail.record({
      actor: auditActorOf(impersonated),
      action: 'job.submitted',
      attributes: { job: 'j1' },
    });
    expect(record).toMatchObject({ actorId: 'ada', attributes: { job: 'j1', acted_by: 'engineer' } });
  });
});
