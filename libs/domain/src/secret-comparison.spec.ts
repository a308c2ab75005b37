import { secretsEqual } from './secret-comparison';

describe(secretsEqual.name, () => {
  it('is true for the same secret only', () => {
    expect(secretsEqual('s3cret', 's3cret')).toBe(true);
    expect(secretsEqual('s3cret', 's3creT')).toBe(false);
  });

  it('compares secrets of different lengths without throwing', () => {
    expect(secretsEqual('short', 'a much longer secret')).toBe(false);
    expect(secretsEqual('', 'x')).toBe(false);
  });
});
