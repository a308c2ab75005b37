import * as grpc from '@grpc/grpc-js';
import autocannon from 'autocannon';

/**
 * One HTTP load of `seconds` with autocannon's Node API, in this process. Every response that
 * is not 2xx, every socket error and every timeout counts as an error.
 */
export async function httpLoad(
  { url, method = 'GET', headers = {}, body, connections, setupRequest, amount },
  seconds,
) {
  const result = await run({
    url,
    method,
    headers,
    body,
    // Per request (a different token each time, say): autocannon calls it before every send.
    ...(setupRequest && { requests: [{ setupRequest }] }),
    connections,
    pipelining: 1,
    timeout: 10,
    // `amount` requests in all, however long they take, instead of `seconds` of load.
    ...(amount === undefined ? { duration: seconds } : { amount }),
  });
  const failed = result.errors + result.non2xx + result.mismatches;
  return {
    requests: result['2xx'],
    seconds: result.duration,
    rps: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: failed,
    errorDetail: { errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx },
  };
}

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * One unary gRPC load of `seconds`: keeps `concurrency` calls in flight on one channel (as the
 * backend does), timing each call with the monotonic clock. `call(done)` issues one call and
 * reports `done(error)`.
 */
export function grpcLoad({ call, concurrency }, seconds) {
  return new Promise((resolve) => {
    const samples = [];
    let errors = 0;
    let inFlight = 0;
    let stopped = false;
    const started = process.hrtime.bigint();
    const end = started + BigInt(Math.round(seconds * 1e9));
    const finish = () => {
      const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
      samples.sort((a, b) => a - b);
      resolve({
        requests: samples.length,
        rps: samples.length / elapsed,
        p50: percentile(samples, 50),
        p99: percentile(samples, 99),
        errors,
        errorDetail: { errors },
      });
    };
    const issue = () => {
      inFlight++;
      const sent = process.hrtime.bigint();
      call((error) => {
        inFlight--;
        const now = process.hrtime.bigint();
        if (error) errors++;
        else samples.push(Number(now - sent) / 1e6);
        if (!stopped && now < end) issue();
        else {
          stopped = true;
          if (inFlight === 0) finish();
        }
      });
    };
    for (let i = 0; i < concurrency; i++) issue();
  });
}

/** The p-th percentile of ascending samples (nearest rank), rounded to 0.01. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[rank] * 100) / 100;
}

/** `ValidateToken` of a sidecar as a promise: OK, or the gRPC status code it answered. */
export function validateToken(client, token, metadata = new grpc.Metadata()) {
  return new Promise((resolve) => {
    client.ValidateToken({ token }, metadata, { deadline: Date.now() + 2_000 }, (error) =>
      resolve(error ? error.code : grpc.status.OK),
    );
  });
}

export { grpc };
