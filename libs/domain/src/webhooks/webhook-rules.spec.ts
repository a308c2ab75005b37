import { Webhook } from 'standardwebhooks';
import { expectDomainError, thrownBy } from '../testing/in-memory-stores';
import { eventTypeMatches } from './webhook-endpoint';
import { WEBHOOK_MAX_ATTEMPTS, webhookRetryDelay } from './webhook-retry';
import { newWebhookSecret, webhookHeaders } from './webhook-signature';
import { checkWebhookUrl, isPublicAddress } from './webhook-url-policy';

const strict = { allowPrivateNetworks: false };
const lenient = { allowPrivateNetworks: true };

describe('event type patterns', () => {
  it.each([
    [['*'], 'token.issued', true],
    [['token.*'], 'token.revoked', true],
    [['token.*'], 'tokens.revoked', false],
    [['token.*'], 'token', false],
    [['token.revoked'], 'token.revoked', true],
    [['token.revoked'], 'token.revoked_all', false],
    [['app.registered', 'webhook.*'], 'webhook.deleted', true],
  ])('%j receives %s: %s', (patterns, action, expected) => {
    expect(eventTypeMatches(patterns, action)).toBe(expected);
  });
});

describe('retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up after the eighth attempt', () => {
    const nominal = (attempts: number) => webhookRetryDelay(attempts, () => 0);
    expect([1, 2, 3, 4, 5, 6, 7].map(nominal)).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(8);
    expect(nominal(8)).toBeNull();
  });

  it('stretches each wait by up to 20 % so a crowd of failures spreads out', () => {
    expect(webhookRetryDelay(2, () => 0.999_999)).toBe(360_000);
    expect(webhookRetryDelay(2, () => 0.5)).toBe(330_000);
  });
});

describe('signatures', () => {
  it('signs as Standard Webhooks verifies, with every secret during a rotation', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const body = JSON.stringify({ type: 'token.issued', data: { sequence_id: 7 } });
    const headers = webhookHeaders({ id: 'msg_7', timestamp: new Date(), body }, [current, previous]);

    expect(headers['webhook-id']).toBe('msg_7');
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [current, previous]) {
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    }
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow();
  });

  it('makes the very signature the standardwebhooks package makes, on UTF-8 text too', () => {
    const secret = newWebhookSecret();
    const timestamp = new Date('2026-11-28T12:00:00.999Z');
    const body = JSON.stringify({ type: 'user.updated', data: { name: 'Zoë 🚀', note: 'a\u0000b' } });
    const headers = webhookHeaders({ id: 'msg_9', timestamp, body }, [secret]);

    expect(headers['webhook-timestamp']).toBe('1795867200');
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('msg_9', timestamp, body));
  });
});

describe('webhook URL policy', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '224.0.0.1',
    'not-an-ip',
  ])('%s is not a public address', (address) => expect(isPublicAddress(address)).toBe(false));

  // IPv4-mapped (::ffff:0:0/96) and IPv4-compatible (::/96) addresses reach the IPv4 address they carry.
  it.each([
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:7f00:1',
    '::127.0.0.1',
    '::7f00:1',
    '::a00:5',
    '::10.0.0.5',
    '::ffff:a9fe:a9fe',
    '::a9fe:a9fe',
    '::c0a8:101',
  ])('%s is judged as the IPv4 address it carries: not public', (address) =>
    expect(isPublicAddress(address)).toBe(false),
  );

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '::808:808'])(
    '%s is public',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );

  it('accepts a public https URL, normalised', () => {
    expect(checkWebhookUrl('https://Hooks.Example.com/in?x=1', strict).href).toBe(
      'https://hooks.example.com/in?x=1',
    );
  });

  it.each([
    ['http://hooks.example.com/', 'https'],
    ['https://127.0.0.1/', 'loopback'],
    ['https://[::1]:8443/', 'loopback'],
    ['https://[::127.0.0.1]/', 'loopback'],
    ['https://[::ffff:7f00:1]/', 'loopback'],
    ['https://[::a9fe:a9fe]/latest/meta-data', 'loopback'],
    ['https://169.254.169.254/latest/meta-data', 'loopback'],
    ['https://10.0.0.5/', 'loopback'],
    ['https://localhost/', 'loopback'],
    ['https://metadata.google.internal/', 'loopback'],
    ['https://printer.local/', 'loopback'],
    ['https://intranet/', 'loopback'],
  ])('refuses %s in production (%s)', (url, reason) => {
    expect(thrownBy(() => checkWebhookUrl(url, strict))).toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining(reason),
    });
  });

  it.each([
    ['ftp://hooks.example.com/', 'http or https'],
    ['/relative', 'http or https'],
    ['https://user:pass@hooks.example.com/', 'credentials'],
    ['https://hooks.example.com/#frag', 'fragment'],
    [`https://hooks.example.com/${'a'.repeat(2048)}`, '2048'],
  ])('refuses %s everywhere (%s)', (url, reason) => {
    for (const policy of [strict, lenient]) {
      expect(thrownBy(() => checkWebhookUrl(url, policy))).toMatchObject({
        message: expect.stringContaining(reason),
      });
    }
  });

  it('lets a development platform reach a local receiver', () => {
    expect(checkWebhookUrl('http://127.0.0.1:9000/hook', lenient).port).toBe('9000');
  });

  it('is a domain error, never a crash', async () => {
    await expectDomainError(
      Promise.resolve().then(() => checkWebhookUrl('https://127.0.0.1/', strict)),
      'validation_failed',
    );
  });
});
