import { MAX_RETURN_TO_LENGTH, safeReturnTo } from './return-to';

describe('safeReturnTo', () => {
  it.each(['/', '/oauth/authorize?client_id=web&state=a%2Fb', '/account#settings'])(
    'keeps the relative path %s',
    (path) => {
      expect(safeReturnTo(path)).toBe(path);
    },
  );

  it('normalizes dot segments without leaving this server', () => {
    expect(safeReturnTo('/a/../b')).toBe('/b');
  });

  it.each([
    ['a protocol-relative URL', '//evil.example'],
    ['a protocol-relative URL with a path', '//evil.example/oauth/authorize'],
    ['an absolute URL', 'https://evil.example'],
    ['a backslash that browsers read as a slash', '/\\evil.example'],
    ['a backslash after the first slash', '/\\/evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['a tab inside the slashes', '/\t/evil.example'],
    ['a newline', '/ok\nLocation: https://evil.example'],
    ['a path without its leading slash', 'oauth/authorize'],
    ['an empty value', ''],
  ])('refuses %s', (_, value) => {
    expect(safeReturnTo(value)).toBeUndefined();
  });

  it('refuses a repeated parameter (an array) and other non-strings', () => {
    expect(safeReturnTo(['/a', '/b'])).toBeUndefined();
    expect(safeReturnTo(undefined)).toBeUndefined();
  });

  it('refuses a value too long for the login cookie', () => {
    expect(safeReturnTo(`/${'a'.repeat(MAX_RETURN_TO_LENGTH)}`)).toBeUndefined();
    expect(safeReturnTo(`/${'a'.repeat(MAX_RETURN_TO_LENGTH - 1)}`)).toBeDefined();
  });
});
