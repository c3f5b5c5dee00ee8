/**
 * Primality for the sizes of filters and sketches (at most 6·10^9, so trial
 * division by the primes up to its square root is enough and exact).
 * @module
 */

const LIMIT = 77500;  // > sqrt(6e9)
const SMALL = [];
{
  const sieve = new Uint8Array(LIMIT + 1);
  for (let i = 2; i <= LIMIT; i++) {
    if (sieve[i]) continue;
    SMALL.push(i);
    for (let j = i * i; j <= LIMIT; j += i) sieve[j] = 1;
  }
}

/** @param {number} n an integer below 6.006e9 */
export function isPrime(n) {
  if (!Number.isSafeInteger(n) || n < 2) return false;
  if (n > LIMIT * LIMIT) throw new RangeError('isPrime is exact only below 6.006e9');
  for (const p of SMALL) {
    if (p * p > n) return true;
    if (n % p === 0) return n === p;
  }
  return true;
}

/** The smallest prime at or above n. @param {number} n */
export function nextPrime(n) {
  let p = Math.max(2, n);
  while (!isPrime(p)) p++;
  return p;
}
