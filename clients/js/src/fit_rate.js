/**
 * The size bloom_fit_agg gives a group (docs/format.md section 5, "Sizing"):
 * the smallest power of two m whose expected rate f(m, n, k) for the
 * group's n distinct values is within the rate asked for.
 * @module
 */
import { UnsupportedError } from './errors.js';

// as the server: bounds decide only this far from the rate
const BOUND_MARGIN = 1e-9;
const EPS = 2 ** -52;
// the server's rate is within 2e-11 relative of the exact one
const SERVER_ERROR = 2e-11;

/** Jensen's lower bound and an upper bound of f (bs_fit_size.c). */
function rateBounds(m, n, k) {
  const occupied = -Math.expm1(n * k * Math.log1p(-1 / m));
  const lower = occupied ** k;
  const upper = 2 * k + 1 <= m ? (-Math.expm1(n * Math.log1p(-k / m))) ** k : occupied;
  return [lower, upper];
}

/** S(k, d), d = 0 .. k, as doubles. @param {number} k */
function stirlingRow(k) {
  let row = [1];
  for (let i = 1; i <= k; i++) {
    const next = [0];
    for (let d = 1; d <= i; d++) next.push(d * (row[d] ?? 0) + row[d - 1]);
    row = next;
  }
  return row;
}

/**
 * f(m, n, k) by its defining sum in doubles, with a bound on its rounding
 * error: [f, error].
 */
function rateInDoubles(m, n, k) {
  const stirling = stirlingRow(k);
  const expo = [];
  for (let j = 0; j <= k; j++) {
    const x = k * n * Math.log1p(-j / m);
    expo.push([Math.exp(x), (Math.abs(x) + 4) * EPS]);
  }
  let total = 0;
  let error = 0;
  let logFalling = 0;
  for (let d = 1; d <= k; d++) {
    logFalling += Math.log1p(-(d - 1) / m);
    const weight = stirling[d] * Math.exp(logFalling + (d - k) * Math.log(m));
    let inner = 0;
    let magnitude = 0;
    let binomial = 1;
    for (let j = 0; j <= d; j++) {
      const term = binomial * expo[j][0];
      inner += j % 2 ? -term : term;
      magnitude += term * (1 + expo[j][1] / EPS);
      binomial = (binomial * (d - j)) / (j + 1);
    }
    total += weight * inner;
    error += weight * magnitude * (d + 8) * EPS + Math.abs(weight * inner) * (k + 8) * EPS;
  }
  return [total, error];
}

/** f(m, n, k) <= fpr decided exactly in integers (for small k·n). */
function rateWithinExact(m, n, k, fpr) {
  const M = BigInt(m);
  const kn = BigInt(k * n);
  const stirling = [1n];
  for (let i = 1; i <= k; i++) {
    const row = [0n];
    for (let d = 1; d <= i; d++) row.push(BigInt(d) * (stirling[d] ?? 0n) + stirling[d - 1]);
    stirling.splice(0, stirling.length, ...row);
  }
  const powers = [];
  for (let j = 0; j <= k; j++) powers.push(j < m ? (M - BigInt(j)) ** kn : 0n);
  let total = 0n;
  let falling = 1n;
  for (let d = 1; d <= k; d++) {
    falling *= M - BigInt(d - 1);
    if (falling === 0n) break;
    let inner = 0n;
    let binomial = 1n;
    for (let j = 0; j <= d; j++) {
      inner += j % 2 ? -binomial * powers[j] : binomial * powers[j];
      binomial = (binomial * BigInt(d - j)) / BigInt(j + 1);
    }
    total += stirling[d] * falling * inner;
  }
  // fpr as an exact fraction num / 2^e
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, fpr);
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const mantissa = (bits & ((1n << 52n) - 1n)) | (exponent ? 1n << 52n : 0n);
  const shift = BigInt(1075 - (exponent || 1));
  return total << shift <= mantissa * M ** (BigInt(k) + kn);
}

/**
 * Whether f(m, n, k) <= fpr, as the server decides it.
 * @param {number} m @param {number} n @param {number} k @param {number} fpr
 */
export function rateWithin(m, n, k, fpr) {
  if (n === 0) return true;
  const [lower, upper] = rateBounds(m, n, k);
  if (upper <= fpr * (1 - BOUND_MARGIN)) return true;
  if (lower > fpr * (1 + BOUND_MARGIN)) return false;
  if (k <= 40) {
    const [rate, error] = rateInDoubles(m, n, k);
    if (rate + error + SERVER_ERROR * rate < fpr) return true;
    if (rate - error - SERVER_ERROR * rate > fpr) return false;
  }
  if (k * n <= 20000) return rateWithinExact(m, n, k, fpr);
  throw new UnsupportedError(`cannot decide the fit size for ${n} values at rate ${fpr} exactly; ` +
    'build this filter with bloom_fit_agg in SQL');
}

/** The smallest fit size for k: a power of two, at least 8 and k. @param {number} k */
export function fitMinBits(k) {
  let bits = 8;
  while (bits < k) bits *= 2;
  return bits;
}

/**
 * [m, met]: the smallest power of two from fitMinBits(k) within the rate,
 * or [ceiling, false] when none up to the ceiling is.
 * @param {number | null} n distinct values, null when not estimable (a full filter)
 * @param {number} k @param {number} fpr @param {number} ceiling
 */
export function fitSize(n, k, fpr, ceiling) {
  if (n === null) return [ceiling, false];
  let m = fitMinBits(k);
  while (!rateWithin(m, n, k, fpr)) {
    if (m >= ceiling) return [ceiling, false];
    m *= 2;
  }
  return [m, true];
}

/** n from s of the ceiling's C bits set, as the final function estimates it. */
export function estimateItems(set, c, k) {
  if (set >= c) return null;
  const items = Math.log1p(-set / c) / (k * Math.log1p(-1 / c));
  return Math.floor(items + 0.5);
}
