/**
 * From canonical bytes to bit positions and counter columns
 * (docs/format.md sections 3, 4 and 6).
 * @module
 */
import { xxh3_64, xxh3_128 } from './xxh3.js';
import { M64 } from './bytes.js';

export const RESEED = 0x9e3779b97f4a7c15n;
const INDEPENDENT_STEP = 0xd1b54a32d192ed03n;
export const COPY_STEP = 0xbf58476d1ce4e5b9n;
const TWO64 = 1n << 64n;

export const SCHEMES = [null, 'double', 'double_square', 'double_cube', 'partition', 'independent',
  'blocked', 'fit', 'fit_partial'];

/**
 * Lemire's multiply-shift onto [0, n) with rejection, for one n.
 * @typedef {{ n: bigint, reject: bigint }} Range
 */

/** @param {number} n @returns {Range} */
export function range(n) {
  const big = BigInt(n);
  return { n: big, reject: (TWO64 - big) % big };
}

/** floor(x n / 2^64), or -1 when rejected. @param {bigint} x @param {Range} r */
function mapUniform(x, r) {
  const p = x * r.n;
  if ((p & M64) < r.reject) return -1;
  return Number(p >> 64n);
}

/** splitmix64's finaliser after adding the golden ratio. @param {bigint} x */
export function remix(x) {
  x = (x + 0x9e3779b97f4a7c15n) & M64;
  x = ((x ^ (x >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  x = ((x ^ (x >> 27n)) * 0x94d049bb133111ebn) & M64;
  return x ^ (x >> 31n);
}

/**
 * The mapped pair (a, b) of the locatable schemes: map h1 onto `first`, h2
 * onto `second`, re-hashing with seed + R until both are accepted.
 * @param {Uint8Array} data @param {bigint} seed @param {Range} first @param {Range} second
 * @returns {[number, number]}
 */
export function locate(data, seed, first, second) {
  for (;;) {
    const [h1, h2] = xxh3_128(data, seed);
    const a = mapUniform(h1, first);
    if (a >= 0) {
      const b = mapUniform(h2, second);
      if (b >= 0) return [a, b];
    }
    seed = (seed + RESEED) & M64;
  }
}

/**
 * The probing of one filter shape: positions(data) gives the k bit
 * positions of a value's canonical bytes, in probe order.
 */
export class Prober {
  /** @param {string} scheme @param {number} m @param {number} k @param {bigint} seed */
  constructor(scheme, m, k, seed) {
    this.scheme = scheme;
    this.m = m;
    this.k = k;
    this.seed = seed;
    if (scheme === 'double') [this.first, this.second] = [range(m), range(m - 1)];
    else if (scheme === 'double_square' || scheme === 'double_cube') this.first = this.second = range(m);
    else if (scheme === 'partition') this.first = this.second = range(m / k);
    else if (scheme === 'independent') this.first = range(m);
    else if (scheme === 'blocked') this.first = range(m / 512);
  }

  /** @param {Uint8Array} data @returns {number[]} */
  positions(data) {
    const { m, k } = this;
    const out = new Array(k);
    switch (this.scheme) {
      case 'double': {
        const [a, b0] = locate(data, this.seed, this.first, this.second);
        const b = b0 + 1;
        for (let i = 0, g = a; i < k; i++, g = (g + b) % m) out[i] = g;
        return out;
      }
      case 'double_square':
      case 'double_cube': {
        const [a, b] = locate(data, this.seed, this.first, this.second);
        const power = this.scheme === 'double_square' ? 2 : 3;
        for (let i = 0; i < k; i++) out[i] = (a + ((i * b) % m) + (i ** power % m)) % m;
        return out;
      }
      case 'partition': {
        const width = m / k;
        const [a, b] = locate(data, this.seed, this.first, this.second);
        for (let i = 0; i < k; i++) out[i] = i * width + ((a + i * b) % width);
        return out;
      }
      case 'independent':
        for (let i = 0; i < k; i++) {
          let s = (this.seed + BigInt(i + 1) * INDEPENDENT_STEP) & M64;
          let g;
          while ((g = mapUniform(xxh3_64(data, s), this.first)) < 0) s = (s + RESEED) & M64;
          out[i] = g;
        }
        return out;
      case 'blocked':
        return this.blocked(data, out);
      case 'fit': {
        const [h1, h2] = xxh3_128(data, this.seed);
        return fitPositions(h1, h2, m, k);
      }
      default:
        throw new Error(`no positions for scheme ${this.scheme}`);
    }
  }

  /** @param {Uint8Array} data @param {number[]} out */
  blocked(data, out) {
    let seed = this.seed;
    let block;
    let word;
    for (;;) {
      const [h1, h2] = xxh3_128(data, seed);
      block = mapUniform(h1, this.first);
      if (block >= 0) {
        word = h2;
        break;
      }
      seed = (seed + RESEED) & M64;
    }
    for (let j = 0; j < this.k; j++) {
      if (j > 0 && j % 7 === 0) word = remix(word);
      out[j] = 512 * block + Number((word >> BigInt(9 * (j % 7))) & 511n);
    }
    return out;
  }
}

/**
 * The fit scheme's positions: two per mixed word of h1 + j (h2 | 1), masked
 * to the power-of-two m.
 * @param {bigint} h1 @param {bigint} h2 @param {number} m @param {number} k
 */
export function fitPositions(h1, h2, m, k) {
  const out = new Array(k);
  const mask = BigInt(m - 1);
  const b = h2 | 1n;
  let x = h1;
  let word = 0n;
  for (let i = 0; i < k; i++) {
    if (i % 2 === 0) {
      word = remix(x);
      x = (x + b) & M64;
      out[i] = Number(word & 0xffffffffn & mask);
    } else {
      out[i] = Number((word >> 32n) & mask);
    }
  }
  return out;
}

/**
 * The counter index of a value in each row of each copy of a count-min
 * sketch, copy-major: (c d + j) w + column.
 * @param {Uint8Array} data @param {number} w @param {number} d @param {number} copies
 * @param {bigint} seed @param {[Range, Range]} ranges range(w), range(w - 1)
 * @returns {number[]}
 */
export function cmsIndexes(data, w, d, copies, seed, ranges) {
  const out = new Array(copies * d);
  for (let c = 0; c < copies; c++) {
    const [a, b0] = locate(data, (seed + BigInt(c) * COPY_STEP) & M64, ranges[0], ranges[1]);
    const b = b0 + 1;
    for (let j = 0, col = a; j < d; j++, col = (col + b) % w) out[c * d + j] = (c * d + j) * w + col;
  }
  return out;
}
