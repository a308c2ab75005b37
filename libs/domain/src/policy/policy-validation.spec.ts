import { isAction, parsePolicy } from './policy-validation';

const candidate = {
  id: 'freeze-secrets',
  description: 'secrets are frozen',
  effect: 'deny',
  roles: ['*'],
  actions: ['secrets.*'],
  tenants: 'any',
};

describe(parsePolicy.name, () => {
  it('accepts a well-formed policy', () => {
    expect(parsePolicy(candidate)).toEqual(candidate);
  });

  it('describes a policy without description by its id', () => {
    expect(parsePolicy({ ...candidate, description: '' })).toMatchObject({ description: 'freeze-secrets' });
  });

  it.each([
    ['an effect other than allow or deny', { effect: 'permit' }, /effect/],
    ['an empty effect', { effect: '' }, /effect/],
    ['tenants other than own, other or any', { tenants: 'all' }, /tenants/],
    ['no id', { id: '' }, /id/],
    ['no roles', { roles: [] }, /roles/],
    ['no actions', { actions: [] }, /actions/],
    ['an action that is not a scope pattern', { actions: ['Secrets Read'] }, /actions/],
  ])('refuses %s', (_case, change, problem) => {
    expect(parsePolicy({ ...candidate, ...change })).toEqual({ problem: expect.stringMatching(problem) });
  });
});

describe(isAction.name, () => {
  it.each(['jobs.read', 'users.write', 'admin.apps.write'])('accepts %s', (action) => {
    expect(isAction(action)).toBe(true);
  });

  it.each(['', '*', 'jobs.*', 'jobs', 'Jobs.read', 'jobs read'])('refuses %p', (action) => {
    expect(isAction(action)).toBe(false);
  });
});
