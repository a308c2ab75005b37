import type { Redis } from 'ioredis';

/** Whether `redis` is connected, waiting up to `timeoutMs` for it (at start, Redis may lag). */
export function redisReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), timeoutMs);
    const onReady = () => done(true);
    const done = (connected: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(connected);
    };
    redis.on('ready', onReady);
  });
}
