/**
 * Self-sized filters: the filter bloom_fit_agg(value, fpr, max_bits) returns
 * for a group of values, rebuilt byte for byte (docs/format.md sections 4
 * and 5, docs/fit.md).
 * @module
 */
import { ParameterError } from './errors.js';
import { M64, popcount } from './bytes.js';
import { canonicalBytes } from './families.js';
import { xxh3_128 } from './xxh3.js';
import { fitPositions } from './probe.js';
import { MAX_FIT_BITS, MIN_CEILING, fitHashes } from './fit_state.js';
import { estimateItems, fitSize } from './fit_rate.js';

const DEFAULT_CEILING = 2 ** 27;
const MAX_REQUEST = 6000000000;

/** The largest power of two within max_bits and 2^32. @param {number} maxBits */
function fitCeiling(maxBits) {
  if (!Number.isSafeInteger(maxBits) || maxBits < MIN_CEILING || maxBits > MAX_REQUEST) {
    throw new ParameterError(`max_bits must be between ${MIN_CEILING} and ${MAX_REQUEST}, not ${maxBits}`);
  }
  let ceiling = MAX_FIT_BITS;
  while (ceiling > maxBits) ceiling /= 2;
  return ceiling;
}

/** Set the fit positions of (h1, h2) in bits of size m. */
function setPair(bits, h1, h2, m, k) {
  for (const g of fitPositions(h1, h2, m, k)) bits[g >> 3] |= 1 << (g & 7);
}

/** The filter at m / 2 bits: the OR of the two halves (m >= 16). */
function fold(bits, m) {
  const half = m / 16;
  const out = new Uint8Array(8 * Math.ceil(m / 2 / 64));
  for (let i = 0; i < half; i++) out[i] = bits[i] | bits[i + half];
  return out;
}

/**
 * The fields of the filter bloom_fit_agg gives the values (non-null ones;
 * repeats count as items), hashed as values of `family`.
 * @param {Iterable<unknown>} values
 * @param {number} family a family code 1-10
 * @param {number} fpr
 * @param {number} maxBits
 */
export function buildFitFields(values, family, fpr = 0.01, maxBits = DEFAULT_CEILING) {
  if (!(fpr > 0 && fpr < 1)) throw new ParameterError(`fpr must be between 0 and 1, not ${fpr}`);
  const ceiling = fitCeiling(maxBits);
  const k = fitHashes(fpr);
  const limit = ceiling / 256;
  /** @type {Map<string, [bigint, bigint]> | null} */
  let pairs = new Map();
  let bitsAtCeiling = null;
  let items = 0n;
  for (const value of values) {
    if (value === null || value === undefined) continue;
    const [h1, h2] = xxh3_128(canonicalBytes(family, value), 0n);
    if (items < M64) items += 1n;
    if (pairs) {
      pairs.set(`${h1}:${h2}`, [h1, h2]);
      if (pairs.size > limit) {
        bitsAtCeiling = new Uint8Array(ceiling / 8);
        for (const [a, b] of pairs.values()) setPair(bitsAtCeiling, a, b, ceiling, k);
        pairs = null;
      }
    } else {
      setPair(bitsAtCeiling, h1, h2, ceiling, k);
    }
  }
  if (items === 0n) return null;
  let m;
  let met;
  let bits;
  if (pairs) {
    [m, met] = fitSize(pairs.size, k, fpr, ceiling);
    bits = new Uint8Array(8 * Math.ceil(m / 64));
    for (const [a, b] of pairs.values()) setPair(bits, a, b, m, k);
  } else {
    [m, met] = fitSize(estimateItems(popcount(bitsAtCeiling), ceiling, k), k, fpr, ceiling);
    bits = bitsAtCeiling;
    for (let size = ceiling; size > m; size /= 2) bits = fold(bits, size);
  }
  return {
    version: 2, scheme: 'fit', family, flags: met ? 0 : 1, k, tag: 0, m, seed: 0n, items, bits,
  };
}
