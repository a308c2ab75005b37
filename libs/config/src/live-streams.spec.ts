import { ConfigError, loadConfig } from './index';

/** INTERNAL_TOKEN set, so loading writes no development token file. */
const load = (env: Record<string, string> = {}) => loadConfig({ INTERNAL_TOKEN: 'x'.repeat(32), ...env });

describe('LIVE_STREAMS_PER_CALLER, LIVE_STREAM_BUFFER_BYTES, LIVE_STREAM_STALL_MS', () => {
  it('sets nothing by default, so every limit takes its default where it is read', () => {
    expect(load().liveStreams).toEqual({});
  });

  it('passes on the limits that are set', () => {
    const env = {
      LIVE_STREAMS_PER_CALLER: '4',
      LIVE_STREAM_BUFFER_BYTES: '65536',
      LIVE_STREAM_STALL_MS: '500',
    };
    expect(load(env).liveStreams).toEqual({ perCaller: 4, bufferedBytes: 65_536, stallMs: 500 });
  });

  it.each([
    ['LIVE_STREAMS_PER_CALLER', '0'],
    ['LIVE_STREAMS_PER_CALLER', 'many'],
    ['LIVE_STREAM_BUFFER_BYTES', '100'],
    ['LIVE_STREAM_STALL_MS', '50'],
    ['LIVE_STREAM_STALL_MS', '600001'],
  ])('refuses %s=%p', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(ConfigError);
  });
});
