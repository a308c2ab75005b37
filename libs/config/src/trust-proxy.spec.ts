import { ConfigError, loadConfig } from './index';

/** INTERNAL_TOKEN set, so loading writes no development token file. */
const load = (env: Record<string, string> = {}) => loadConfig({ INTERNAL_TOKEN: 'x'.repeat(32), ...env });

describe('TRUST_PROXY', () => {
  it('trusts nothing by default: X-Forwarded-For is ignored', () => {
    expect(load().trustProxy).toEqual([]);
  });

  it.each([
    ['10.0.0.0/8', ['10.0.0.0/8']],
    ['10.0.0.0/8, 192.168.1.7 ,fd00::/8', ['10.0.0.0/8', '192.168.1.7', 'fd00::/8']],
    ['::ffff:10.0.0.1', ['::ffff:10.0.0.1']],
    ['uniquelocal,loopback', ['uniquelocal', 'loopback']],
  ])('reads %p as the trusted proxies', (value, trusted) => {
    expect(load({ TRUST_PROXY: value }).trustProxy).toEqual(trusted);
  });

  // A hop count or "everyone" would believe a client that reaches the backend directly.
  it.each([
    '1',
    'true',
    'all',
    '10.0.0.0/33',
    'fd00::/129',
    '10.0.0',
    'proxy.internal',
    '10.0.0.0/8,',
    '10.0.0.0/8/8',
  ])('refuses %p, saying what it takes', (value) => {
    expect(() => load({ TRUST_PROXY: value })).toThrow(ConfigError);
    expect(() => load({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY must be the proxies' IP addresses/);
  });
});
