import { stripVTControlCharacters } from 'node:util';
import { acceptCorrelationId, correlationId, withCorrelationId } from './correlation';
import { CorrelatedLogger } from './logger';

describe('correlation id', () => {
  it('is visible to everything the work awaits, and gone after it', async () => {
    const seen = await withCorrelationId('req-1', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return correlationId();
    });
    expect(seen).toBe('req-1');
    expect(correlationId()).toBeUndefined();
  });

  it('keeps concurrent requests apart', async () => {
    const later = (id: string, ms: number) =>
      withCorrelationId(
        id,
        () => new Promise<string | undefined>((r) => setTimeout(() => r(correlationId()), ms)),
      );
    await expect(Promise.all([later('a', 5), later('b', 1)])).resolves.toEqual(['a', 'b']);
  });

  it('accepts a plain incoming id and replaces anything else with a UUID', () => {
    expect(acceptCorrelationId('abc-123.x:y')).toBe('abc-123.x:y');
    for (const unsafe of [undefined, '', 'has space', 'line\nbreak', 'x'.repeat(129)]) {
      expect(acceptCorrelationId(unsafe)).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('CorrelatedLogger', () => {
  const captured = (): jest.SpyInstance => jest.spyOn(process.stdout, 'write').mockImplementation(() => true);

  afterEach(() => jest.restoreAllMocks());

  it('prefixes text lines with the correlation id', () => {
    const logger = new CorrelatedLogger('text');
    const write = captured();
    withCorrelationId('req-7', () => logger.log('hello', 'Test'));
    logger.log('outside', 'Test');
    const plain = (call: number) => stripVTControlCharacters(String(write.mock.calls[call][0]));
    expect(plain(0)).toContain('[req-7] hello');
    expect(plain(1)).not.toContain('[req-7]');
  });

  it('does not prefix a line that already names its request', () => {
    const logger = new CorrelatedLogger('text');
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    withCorrelationId('req-9', () => logger.error('[req-9] POST /x: boom', undefined, 'Test'));
    const line = stripVTControlCharacters(String(write.mock.calls[0][0]));
    expect(line.match(/\[req-9\]/g)).toHaveLength(1);
  });

  it('adds correlation_id to JSON lines', () => {
    const logger = new CorrelatedLogger('json');
    const write = captured();
    withCorrelationId('req-8', () => logger.log('hello', 'Test'));
    const line = JSON.parse(String(write.mock.calls[0][0]));
    expect(line).toMatchObject({ message: 'hello', context: 'Test', correlation_id: 'req-8' });
  });

  it('names its service and masks secrets in JSON lines, stack traces included', () => {
    const logger = new CorrelatedLogger('json', 'backend');
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    logger.error(
      'refused Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln',
      'Error: client_secret=hunter2\n  at x',
      'Test',
    );
    const line = JSON.parse(String(write.mock.calls[0][0]));
    expect(line).toMatchObject({ service: 'backend', message: 'refused Bearer [masked]' });
    expect(line.stack).toBe('Error: client_secret=[masked]\n  at x');
  });

  it('masks secrets in text lines and their stack traces', () => {
    const logger = new CorrelatedLogger('text');
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    logger.error('refresh plat_rt_c2VjcmV0', 'Error: password=hunter2', 'Test');
    const text = write.mock.calls.map((call) => String(call[0])).join('');
    expect(text).toContain('refresh plat_rt_[masked]');
    expect(text).toContain('password=[masked]');
    expect(text).not.toMatch(/hunter2|c2VjcmV0/);
  });
});
