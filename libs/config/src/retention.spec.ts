import { ConfigError, loadConfig } from './index';

/** INTERNAL_TOKEN set, so loading writes no development token file. */
const load = (env: Record<string, string> = {}) => loadConfig({ INTERNAL_TOKEN: 'x'.repeat(32), ...env });

describe('RETENTION_GRACE_MINUTES, TOKEN_EVENT_RETENTION_DAYS', () => {
  it('keeps expired rows an hour and token events 30 days by default', () => {
    expect(load().retention).toEqual({ graceSeconds: 3_600, tokenEventDays: 30 });
  });

  it('passes on what is set, 0 included', () => {
    const env = { RETENTION_GRACE_MINUTES: '0', TOKEN_EVENT_RETENTION_DAYS: '0' };
    expect(load(env).retention).toEqual({ graceSeconds: 0, tokenEventDays: 0 });
    expect(load({ RETENTION_GRACE_MINUTES: '15' }).retention.graceSeconds).toBe(900);
  });

  it.each([
    ['RETENTION_GRACE_MINUTES', '-1'],
    ['RETENTION_GRACE_MINUTES', '100000'],
    ['TOKEN_EVENT_RETENTION_DAYS', '1.5'],
    ['TOKEN_EVENT_RETENTION_DAYS', 'forever'],
  ])('refuses %s=%p', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(ConfigError);
  });
});
