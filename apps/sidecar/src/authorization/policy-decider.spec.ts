import { Logger } from '@nestjs/common';
import { correlationId, withCorrelationId } from '@platform/telemetry';
import type { PolicyPrincipal } from '@platform/domain';
import { PolicyDecider } from './policy-decider';

const viewer: PolicyPrincipal = {
  kind: 'user',
  id: 'user-7',
  clientId: 'portal',
  tenant: 'acme',
  roles: ['viewer'],
  scopes: ['users.*'],
};

describe(PolicyDecider.name, () => {
  let log: jest.SpyInstance;

  beforeEach(() => {
    log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => log.mockRestore());

  it('logs a denied decision with its id, the action, the principal and the deciding policies', () => {
    let loggedUnder: string | undefined;
    log.mockImplementation(() => (loggedUnder = correlationId()));
    const decision = withCorrelationId('req-5', () =>
      new PolicyDecider().decide(
        { principal: viewer, action: 'users.write', resourceTenant: 'acme' },
        { enforced: true },
      ),
    );

    expect(decision).toMatchObject({ effect: 'deny', enforced: true });
    expect(log).toHaveBeenCalledTimes(1);
    const line = String(log.mock.calls[0][0]);
    expect(loggedUnder).toBe('req-5');
    expect(line).toContain(`decision ${decision.decisionId}`);
    expect(line).toContain('users.write');
    expect(line).toContain('user-7');
    expect(line).toContain('default-deny');
  });

  it('marks a denied dry run as such', () => {
    new PolicyDecider().decide(
      { principal: viewer, action: 'users.write', resourceTenant: 'acme' },
      { enforced: false },
    );

    expect(String(log.mock.calls[0][0])).toContain('(dry run)');
  });

  it('does not log an allowed decision', () => {
    const decision = new PolicyDecider().decide(
      { principal: viewer, action: 'users.read', resourceTenant: 'acme' },
      { enforced: true },
    );

    expect(decision.effect).toBe('allow');
    expect(log).not.toHaveBeenCalled();
  });

  it('gives every decision a fresh id', () => {
    const decider = new PolicyDecider();
    const request = { principal: viewer, action: 'users.read' };

    const ids = new Set([1, 2, 3].map(() => decider.decide(request, { enforced: true }).decisionId));

    expect(ids.size).toBe(3);
  });
});
