import { ConfigError, loadConfig } from './index';

/** INTERNAL_TOKEN set, so loading writes no development token file. */
const load = (env: Record<string, string> = {}) => loadConfig({ INTERNAL_TOKEN: 'x'.repeat(32), ...env });

describe('REFRESH_TOKEN_ABSOLUTE_LIFETIME_DAYS, ARGON2_CONCURRENCY, ARGON2_NICE', () => {
  it('ends a refresh family after 90 days and runs two argon2 at a time, at nice 15, by default', () => {
    expect(load()).toMatchObject({
      refreshTokenAbsoluteLifetimeDays: 90,
      argon2Concurrency: 2,
      argon2Nice: 15,
    });
  });

  it('passes on what is set', () => {
    const env = { REFRESH_TOKEN_ABSOLUTE_LIFETIME_DAYS: '14', ARGON2_CONCURRENCY: '3', ARGON2_NICE: '0' };
    expect(load(env)).toMatchObject({
      refreshTokenAbsoluteLifetimeDays: 14,
      argon2Concurrency: 3,
      argon2Nice: 0,
    });
  });

  it.each([
    ['REFRESH_TOKEN_ABSOLUTE_LIFETIME_DAYS', '0'],
    ['REFRESH_TOKEN_ABSOLUTE_LIFETIME_DAYS', '1.5'],
    ['REFRESH_TOKEN_ABSOLUTE_LIFETIME_DAYS', '10000'],
    ['ARGON2_CONCURRENCY', '0'],
    ['ARGON2_CONCURRENCY', '65'],
    ['ARGON2_CONCURRENCY', 'many'],
    ['ARGON2_NICE', '20'],
    ['ARGON2_NICE', '-5'],
  ])('refuses %s=%p', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(ConfigError);
  });
});
