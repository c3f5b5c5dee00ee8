/**
 * The partial state of bloom_fit_agg (scheme fit_partial, docs/format.md
 * section 5): its checks.  The library reads such states but, like every
 * SQL function but the aggregate, refuses to use them.
 * @module
 */
import { u64, popcount } from './bytes.js';

export const MIN_CEILING = 1024;
export const MAX_FIT_BITS = 2 ** 32;
export const MAX_HASHES = 1024;

/** k = round(log2(1 / fpr)), halves away from zero, in 1 .. 1024. @param {number} fpr */
export function fitHashes(fpr) {
  const k = Math.floor(-Math.log2(fpr) + 0.5);
  return Math.max(1, Math.min(MAX_HASHES, k));
}

/** The rate stored as the bits of a double. @param {bigint} word */
export function rateOfWord(word) {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, word, true);
  return view.getFloat64(0, true);
}

/**
 * A message saying what is wrong with a fit_partial state, or null.
 * @param {{ k: number, m: number, family: number, items: bigint, bits: Uint8Array }} f
 */
export function checkFitState(f) {
  const words = f.bits.length / 8;
  if (words < 2) return 'bloom_fit_agg state without its rate and ceiling';
  const rate = rateOfWord(u64(f.bits, 0));
  const ceiling = u64(f.bits, 8);
  if (!(rate > 0 && rate < 1) || f.k !== fitHashes(rate)) return 'bloom_fit_agg state with an invalid rate';
  if (ceiling < BigInt(MIN_CEILING) || ceiling > BigInt(MAX_FIT_BITS) || (ceiling & (ceiling - 1n)) !== 0n) {
    return 'bloom_fit_agg state with an invalid ceiling';
  }
  const c = Number(ceiling);
  const body = words - 2;
  if (body === c / 64) {
    if (f.items <= BigInt(c / 256) || BigInt(popcount(f.bits.subarray(16))) > BigInt(f.k) * f.items) {
      return 'bloom_fit_agg state bits do not match its items';
    }
    return null;
  }
  const pairs = body / 2;
  if (body % 2 !== 0 || pairs > c / 256 || BigInt(pairs) > f.items || (pairs === 0) !== (f.family === 0)) {
    return 'bloom_fit_agg state hashes malformed';
  }
  for (let i = 1; i < pairs; i++) {
    const prev = [u64(f.bits, 16 + 16 * (i - 1)), u64(f.bits, 24 + 16 * (i - 1))];
    const cur = [u64(f.bits, 16 + 16 * i), u64(f.bits, 24 + 16 * i)];
    if (prev[0] > cur[0] || (prev[0] === cur[0] && prev[1] >= cur[1])) return 'bloom_fit_agg state hashes not ascending';
  }
  return null;
}
