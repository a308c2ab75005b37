import { isLoopbackAddress } from './checks';

describe(isLoopbackAddress.name, () => {
  it.each([
    '[::1]:50051',
    '127.0.0.1:50051',
    '127.1.2.3:0',
    'localhost:50051',
    '[::ffff:127.0.0.1]:1',
    'unix:/run/sidecar.sock',
    'dns:127.0.0.1:50051',
  ])('accepts %s', (address) => {
    expect(isLoopbackAddress(address)).toBe(true);
  });

  it.each([
    '0.0.0.0:50051',
    '[::]:50051',
    '10.0.0.5:50051',
    '[2001:db8::1]:50051',
    'sidecar.internal:50051',
    '::1',
    '',
  ])('refuses %s', (address) => {
    expect(isLoopbackAddress(address)).toBe(false);
  });
});
