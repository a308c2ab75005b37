import { generateKeyPairSync, randomBytes, sign, verify } from 'node:crypto';

/**
 * The physical limit: how many RS256 signatures (2048-bit key) one core makes and checks per
 * second with Node's one-shot crypto.sign / crypto.verify, synchronously on this thread. The
 * input is the size of one of our access tokens' signing input.
 */
export function measureRs256({ seconds }) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const input = Buffer.from(randomBytes(240).toString('base64url'));
  const signature = sign('sha256', input, privateKey);
  const signRate = rate(seconds, () => sign('sha256', input, privateKey));
  const verifyRate = rate(seconds, () => {
    if (!verify('sha256', input, publicKey, signature)) throw new Error('RS256 verify failed');
  });
  return { signPerSecond: Math.round(signRate), verifyPerSecond: Math.round(verifyRate) };
}

function rate(seconds, operation) {
  // Warm-up: a tenth of the time, not counted.
  timed(seconds / 10, operation);
  const { count, elapsed } = timed(seconds, operation);
  return count / elapsed;
}

function timed(seconds, operation) {
  const started = process.hrtime.bigint();
  const budget = BigInt(Math.round(seconds * 1e9));
  let count = 0;
  let now = started;
  while (now - started < budget) {
    for (let i = 0; i < 16; i++) operation();
    count += 16;
    now = process.hrtime.bigint();
  }
  return { count, elapsed: Number(now - started) / 1e9 };
}
