import { matchDescriptor, readRateLimitRules } from './rate-limit-rules';

const perMinute = (requests_per_unit: number) => ({ unit: 'minute', requests_per_unit });
const RULES = readRateLimitRules({
  descriptors: [
    { key: 'remote_address', rate_limit: perMinute(60) },
    {
      key: 'path',
      value: '/login',
      rate_limit: perMinute(10),
      descriptors: [{ key: 'user', rate_limit: { unit: 'second', requests_per_unit: 1, burst: 2 } }],
    },
    { key: 'path', descriptors: [{ key: 'method', value: 'POST', rate_limit: perMinute(100) }] },
  ],
});

describe(matchDescriptor.name, () => {
  it('counts each value of a key-only rule apart', () => {
    expect(matchDescriptor(RULES, [{ key: 'remote_address', value: '10.0.0.1' }])).toEqual({
      limit: perMinute(60),
      counterKey: 'remote_address=10.0.0.1',
    });
  });

  it('prefers the rule of the exact value, and walks nested descriptors to the deepest', () => {
    expect(matchDescriptor(RULES, [{ key: 'path', value: '/login' }])?.limit).toEqual(perMinute(10));
    expect(
      matchDescriptor(RULES, [
        { key: 'path', value: '/login' },
        { key: 'user', value: 'ada' },
      ]),
    ).toEqual({
      limit: { unit: 'second', requests_per_unit: 1, burst: 2 },
      counterKey: 'path=/login|user=ada',
    });
    expect(
      matchDescriptor(RULES, [
        { key: 'path', value: '/search' },
        { key: 'method', value: 'POST' },
      ])?.limit,
    ).toEqual(perMinute(100));
  });

  it('limits nothing when a level does not match or the last rule has no limit', () => {
    expect(matchDescriptor(RULES, [{ key: 'country', value: 'FR' }])).toBeUndefined();
    expect(matchDescriptor(RULES, [{ key: 'path', value: '/search' }])).toBeUndefined();
    expect(
      matchDescriptor(RULES, [
        { key: 'path', value: '/search' },
        { key: 'method', value: 'GET' },
      ]),
    ).toBeUndefined();
    expect(matchDescriptor(RULES, [])).toBeUndefined();
  });
});

describe(readRateLimitRules.name, () => {
  it.each([
    [null, /must be an object/],
    [{}, /descriptors must be an array/],
    [{ descriptors: [{ value: 'x' }] }, /descriptors\[0\]\.key/],
    [
      { descriptors: [{ key: 'a', rate_limit: { unit: 'week', requests_per_unit: 1 } }] },
      /unit must be one of/,
    ],
    [
      { descriptors: [{ key: 'a', rate_limit: { unit: 'second', requests_per_unit: 0 } }] },
      /requests_per_unit/,
    ],
    [
      { descriptors: [{ key: 'a', rate_limit: { unit: 'second', requests_per_unit: 1, burst: -1 } }] },
      /burst/,
    ],
    [{ descriptors: [{ key: 'a' }, { key: 'a' }] }, /there twice/],
  ])('refuses %j', (document, problem) => {
    expect(() => readRateLimitRules(document)).toThrow(problem);
  });

  it('refuses nesting deeper than 8 levels', () => {
    let level: Record<string, unknown> = { key: 'k9' };
    for (let depth = 8; depth >= 1; depth--) level = { key: `k${depth}`, descriptors: [level] };
    expect(() => readRateLimitRules({ descriptors: [level] })).toThrow(/at most 8 deep/);
  });
});
