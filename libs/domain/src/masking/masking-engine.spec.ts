import { createHmac } from 'node:crypto';
import { DomainError } from '../errors';
import { MaskingEngine, type MaskingOptions } from './masking-engine';

const keys = (tenant: string) => Buffer.from(`key-of-${tenant}`);
const engine = new MaskingEngine(keys);
const mask = (text: string, options: MaskingOptions = {}, tenant = 'acme') =>
  engine.maskText(engine.prepare(tenant, options), text);
const found = (text: string, options: MaskingOptions = {}) =>
  mask(text, options).items.map((i) => i.entityType);

const JWT =
  'eyJhbGciOiJSUzI1NiIsInR5cCI6ImF0K2p3dCJ9.eyJzdWIiOiJhZGEiLCJjbGllbnRfaWQiOiJhcHAifQ.c2lnbmF0dXJlLWJ5dGVz';

/** Text that holds each entity, and the entity found there (Presidio's names where it has one). */
const POSITIVES: Array<[string, string, string]> = [
  ['an email', 'write to ada.lovelace+ops@example.co.uk today', 'EMAIL_ADDRESS'],
  ['an international phone number', 'call +44 20 7946 0958 after lunch', 'PHONE_NUMBER'],
  ['a US phone number', 'cell: (415) 555-2671', 'PHONE_NUMBER'],
  ['a Visa number with spaces', 'card 4111 1111 1111 1111 exp 12/29', 'CREDIT_CARD'],
  ['a Mastercard number with dashes', 'paid with 5555-5555-5555-4444.', 'CREDIT_CARD'],
  ['an IBAN, grouped', 'IBAN: DE89 3704 0044 0532 0130 00', 'IBAN_CODE'],
  ['an IBAN, electronic', 'to GB82WEST12345698765432 please', 'IBAN_CODE'],
  ['an IPv4 address', 'from 192.168.10.24 at noon', 'IP_ADDRESS'],
  ['an IPv6 address', 'peer 2001:db8::8a2e:370:7334 connected', 'IP_ADDRESS'],
  ['a JWT', `token=${JWT.slice(0, 10)}… no; ${JWT}`, 'JWT'],
  ['a bearer credential', 'Authorization: Bearer abcdefghij0123456789', 'BEARER_TOKEN'],
  [
    'a refresh token of ours',
    'rt plat_rt_6q0pDq2mZ3uQ1y8Lw5e9Xk7sNf4Rb2Tv1Hc0Ja8Gd3M in the body',
    'PLATFORM_SECRET',
  ],
  ['a webhook secret', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'PLATFORM_SECRET'],
  [
    'a client secret by its name',
    'client_secret=Zx9vQ2Lr8pT1mK4nB7cD3fG6hJ0sA5eW2yU8iO1qR4t',
    'SECRET_PARAMETER',
  ],
  ['an AWS key id', 'AKIAIOSFODNN7EXAMPLE was leaked', 'API_KEY'],
  ['a GitHub token', 'ghp_0123456789abcdefghijklmnopqrstuvwxyz is old', 'API_KEY'],
  ['a Stripe key', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'API_KEY'],
];

/** Ordinary text that must come out unchanged: no false positive. */
const NEGATIVES: Array<[string, string]> = [
  ['dates', 'Shipped 2024-05-12, due 12/05/2024 or 05.12.2024.'],
  ['times', 'between 09:30:15 and 17:45:00 UTC'],
  ['order numbers', 'order #123456789012 and invoice INV-2024-000123'],
  ['amounts', 'total $1,234,567.89 for 1234 units'],
  ['versions', 'upgrade to 4.5.12 or v10.20.30-rc.1'],
  ['a sixteen-digit number that fails Luhn', 'reference 1234 5678 9012 3456'],
  ['an IBAN-shaped string with bad check digits', 'code DE00 3704 0044 0532 0130 00'],
  ['an out-of-range dotted quad', 'build 300.1.2.3'],
  ['words with at signs', 'meet @ noon, ping @ada on chat'],
  ['a short number', 'room 415 floor 5'],
];

describe(MaskingEngine.name, () => {
  it.each(POSITIVES)('finds %s', (_, text, entity) => {
    expect(found(text)).toContain(entity);
  });

  it.each(NEGATIVES)('leaves %s alone', (_, text) => {
    expect(mask(text)).toEqual({ text, items: [] });
  });

  it('replaces with the entity type by default and says where each replacement is', () => {
    const { text, items } = mask('mail ada@example.com from 10.0.0.1');
    expect(text).toBe('mail <EMAIL_ADDRESS> from <IP_ADDRESS>');
    expect(items).toEqual([
      { entityType: 'EMAIL_ADDRESS', start: 5, end: 20, operator: 'replace' },
      { entityType: 'IP_ADDRESS', start: 26, end: 38, operator: 'replace' },
    ]);
    expect(text.slice(items[1].start, items[1].end)).toBe('<IP_ADDRESS>');
  });

  it('applies each operator: redact, replace, mask keeping the last N, hash under the tenant key', () => {
    const operators = {
      CREDIT_CARD: { type: 'mask' as const, keepLast: 4, maskingChar: '#' },
      EMAIL_ADDRESS: { type: 'hash' as const },
      IP_ADDRESS: { type: 'redact' as const },
      DEFAULT: { type: 'replace' as const, newValue: '[removed]' },
    };
    const { text } = mask('4111111111111111 ada@example.com 10.0.0.1 +1 415 555 2671', { operators });
    const hash = createHmac('sha256', keys('acme')).update('ada@example.com').digest('hex');
    expect(text).toBe(`############1111 ${hash}  [removed]`);
  });

  it('hashes equal values equally within a tenant and differently across tenants', () => {
    const options = { operators: { DEFAULT: { type: 'hash' as const } } };
    expect(mask('ada@example.com', options).text).toBe(mask('ada@example.com', options).text);
    expect(mask('ada@example.com', options, 'globex').text).not.toBe(mask('ada@example.com', options).text);
  });

  it('masks only the credential of a header or a parameter, keeping what says what it was', () => {
    expect(mask('Authorization: Bearer abcdefghij0123456789').text).toBe(
      'Authorization: Bearer <BEARER_TOKEN>',
    );
    expect(mask('refresh_token=abc.def-123&x=1').text).toBe('refresh_token=<SECRET_PARAMETER>&x=1');
  });

  it('looks only for the entity types asked for', () => {
    expect(found('ada@example.com 10.0.0.1', { entities: ['IP_ADDRESS'] })).toEqual(['IP_ADDRESS']);
  });

  it('runs custom patterns, and refuses the ones that could backtrack catastrophically', () => {
    const customPatterns = [{ name: 'EMPLOYEE_ID', regex: 'EMP-\\d{6}' }];
    expect(mask('badge EMP-004211 issued', { customPatterns }).text).toBe('badge <EMPLOYEE_ID> issued');
    for (const [pattern, problem] of [
      ['(a+)+$', /backtrack/],
      ['(a*)*b', /backtrack/],
      ['[', /not a regular expression/],
      ['a*', /empty string/],
      ['a'.repeat(300), /1 to 256/],
    ] as const) {
      expect(() => engine.prepare('acme', { customPatterns: [{ name: 'BAD', regex: pattern }] })).toThrow(
        problem,
      );
    }
    expect(() => engine.prepare('acme', { customPatterns: [{ name: 'lower', regex: 'x' }] })).toThrow(
      /upper case/,
    );
  });

  it.each([
    [{ entities: ['SSN'] }, /unknown entity types: SSN/],
    [{ operators: { DEFAULT: { type: 'encrypt' } } }, /operator of DEFAULT/],
    [{ operators: { CREDIT_CARD: { type: 'mask', keepLast: -1 } } }, /keep_last/],
    [{ operators: { CREDIT_CARD: { type: 'mask', maskingChar: '**' } } }, /one character/],
    [{ region: 'XX' }, /region XX/],
  ])('refuses %j as invalid input', (options, problem) => {
    const attempt = () => engine.prepare('acme', options as MaskingOptions);
    expect(attempt).toThrow(DomainError);
    expect(attempt).toThrow(problem);
  });

  it('refuses a text over 1 MiB', () => {
    expect(() => mask('a'.repeat(1024 * 1024 + 1))).toThrow(/over 1048576 bytes/);
  });

  describe('maskJson', () => {
    const prepared = () => engine.prepare('acme', { operators: { FIELD: { type: 'mask', keepLast: 2 } } });

    it('masks field paths whole (wildcards and indexes) and detects in the other values', () => {
      const document = {
        user: { email: 'ada@example.com', note: 'call +44 20 7946 0958', born: 1936 },
        cards: [{ number: '4111111111111111', brand: 'visa' }],
        tags: ['vip'],
      };
      const result = engine.maskJson(
        prepared(),
        JSON.stringify(document),
        ['user.email', 'cards[*].number', 'user.born'],
        true,
      );
      expect(JSON.parse(result.json)).toEqual({
        user: { email: '*************om', note: 'call <PHONE_NUMBER>', born: '**36' },
        cards: [{ number: '**************11', brand: 'visa' }],
        tags: ['vip'],
      });
      expect(result).toMatchObject({ maskedFields: 3, maskedSpans: 1 });
    });

    it('leaves other values alone without detection, and refuses what is not JSON or a bad path', () => {
      const plain = engine.maskJson(prepared(), '{"note":"ada@example.com"}', [], false);
      expect(plain).toEqual({ json: '{"note":"ada@example.com"}', maskedFields: 0, maskedSpans: 0 });
      expect(() => engine.maskJson(prepared(), '{"a":', [], true)).toThrow(/not a JSON document/);
      expect(() => engine.maskJson(prepared(), '{}', ['a..b'], true)).toThrow(/malformed/);
    });
  });
});
