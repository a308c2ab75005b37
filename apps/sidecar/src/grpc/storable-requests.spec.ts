import { status, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { storableRequests } from './storable-requests';

type Handler = (...args: unknown[]) => unknown;

describe(storableRequests.name, () => {
  const unary = jest.fn((_call: unknown, callback: (e: null, r: object) => void) => callback(null, {}));
  const stream = jest.fn((_call: unknown) => undefined);
  const wrapped = (service = 'JobService') =>
    storableRequests(
      { Unary: unary, Stream: stream } as unknown as UntypedServiceImplementation,
      service,
    ) as Record<string, Handler>;
  beforeEach(() => jest.clearAllMocks());

  it('keeps each handler’s arity, which tells a unary handler from a stream', () => {
    expect([wrapped().Unary.length, wrapped().Stream.length]).toEqual([2, 1]);
  });

  it('passes a request whose strings every database can hold', () => {
    const callback = jest.fn();
    wrapped().Unary({ request: { tenant: 'acme', tags: ['a'] } }, callback);
    expect(unary).toHaveBeenCalled();
    expect(callback).toHaveBeenCalledWith(null, {});
  });

  it('ends a unary call INVALID_ARGUMENT naming the field, without running the handler', () => {
    const callback = jest.fn();
    wrapped().Unary({ request: { tenant: 'acme', key: 'k\u0000' } }, callback);
    expect(unary).not.toHaveBeenCalled();
    expect(callback).toHaveBeenCalledWith(
      expect.objectContaining({ code: status.INVALID_ARGUMENT, details: 'key holds a NUL character' }),
    );
  });

  it('ends a server stream through its error event', () => {
    const emit = jest.fn();
    wrapped().Stream({ request: { id: '\ud800' }, write: () => true, emit });
    expect(stream).not.toHaveBeenCalled();
    expect(emit).toHaveBeenCalledWith('error', expect.objectContaining({ code: status.INVALID_ARGUMENT }));
  });

  it('lets MaskString’s text hold a NUL: it is masked, never stored', () => {
    const callback = jest.fn();
    storableRequests(
      { MaskString: unary } as unknown as UntypedServiceImplementation,
      'MaskingService',
    ).MaskString({ request: { token: 't', text: 'a\u0000b' } } as never, callback);
    expect(callback).toHaveBeenCalledWith(null, {});
  });
});
