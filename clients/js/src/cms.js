/**
 * CountMinSketch: reads, estimates, builds and merges cmsketch values byte
 * for byte as the server does.
 * @module
 */
import { MismatchError, ParameterError, TooLargeError, UnsupportedError } from './errors.js';
import { M64 } from './bytes.js';
import { FAMILY_OTHER, canonicalBytes, familyToken, hashableFamily } from './families.js';
import { cmsIndexes, range } from './probe.js';
import { nextPrime } from './primes.js';
import { CMS_MAX_BYTES, cmsStoredBytes, cmsText, decodeCms, encodeCms, parseCmsText, smallestRowSum } from './cms_codec.js';
import { checkProbeVersion, combineVersions } from './versions.js';

const INT64_MAX = (1n << 63n) - 1n;
const MAX_DIM = 0xffff;

/** Theorem 9.1's failure bound of one copy (bs_cms_failure_bound). */
function failureBound(epsilon, w, d) {
  return 2.0 / (epsilon * w * (w - 1.0)) + (2.0 / (epsilon * w)) ** d;
}

/**
 * @typedef {object} CmsInfo  the fields of cms_info(sketch)
 * @property {number} width
 * @property {number} depth
 * @property {number} copies
 * @property {number} epsilon  2e/w
 * @property {number} delta  Theorem 9.1's bound at that epsilon, to the power copies
 * @property {bigint} seed
 * @property {string} family
 * @property {bigint} total
 * @property {number} bytes
 * @property {number} formatVersion
 */

export class CountMinSketch {
  /** @param {import('./cms_codec.js').CmsFields} fields @param {number} [buildFamily] */
  constructor(fields, buildFamily = 0) {
    /** @private */
    this.s = fields;
    /** @private */
    this.buildFamily = buildFamily;
    /** @private */
    this.ranges = [range(fields.w), range(fields.w - 1)];
  }

  /** A sketch from its binary form, validated. @param {Uint8Array} bytes */
  static fromBytes(bytes) {
    return new CountMinSketch(decodeCms(bytes));
  }

  /** A sketch from its text form (cms:v2:...), validated. @param {string} text */
  static fromText(text) {
    return new CountMinSketch(parseCmsText(text));
  }

  /**
   * An empty sketch sized as cms_create(epsilon, delta, seed) sizes it.
   * @param {{ family: string, epsilon?: number, delta?: number, seed?: bigint | number }} options
   */
  static create({ family, epsilon = 0.001, delta = 0.001, seed = 0n }) {
    const code = hashableFamily(family);
    if (!(epsilon > 0 && epsilon < 1)) throw new ParameterError(`cmsketch error bound epsilon must be greater than 0 and less than 1, not ${epsilon}`);
    if (!(delta > 0 && delta < 1)) throw new ParameterError(`cmsketch failure probability delta must be greater than 0 and less than 1, not ${delta}`);
    const rawWidth = Math.ceil((2.0 * Math.E) / epsilon);
    if (rawWidth > 0xffffffff) throw new TooLargeError(`cmsketch for epsilon ${epsilon} is too large`);
    const w = nextPrimeWidth(rawWidth);
    const rawDepth = Math.ceil(Math.log(1.0 / (epsilon * (1.0 - 1.0 / (2.0 * Math.E * Math.E)))));
    let d = rawDepth < 1 ? 1 : rawDepth;
    while (failureBound(epsilon, w, d) > epsilon && d < w) d++;
    let copies = 1;
    if (delta < epsilon) copies = Math.max(1, Math.ceil((Math.log(delta) / Math.log(epsilon)) * (1.0 - 1e-12)));
    if (copies > MAX_DIM) throw new TooLargeError(`cmsketch for delta ${delta} needs ${copies} copies; the largest sketch has ${MAX_DIM}`);
    return CountMinSketch.empty(w, d, copies, seed, code);
  }

  /**
   * An empty sketch as cms_create_dims(width, depth, seed) makes it: width
   * rounded up to a prime, one copy unless `copies` says otherwise.
   * @param {{ family: string, width: number, depth: number, copies?: number, seed?: bigint | number }} options
   */
  static createDims({ family, width, depth, copies = 1, seed = 0n }) {
    const code = hashableFamily(family);
    for (const [name, v] of [['width', width], ['depth', depth], ['number of copies', copies]]) {
      if (!Number.isSafeInteger(v) || v < 1) throw new ParameterError(`cmsketch ${name} must be at least 1, not ${v}`);
    }
    if (width > 0xffffffff || depth > MAX_DIM || copies > MAX_DIM) throw new TooLargeError('cmsketch is too large');
    const w = nextPrimeWidth(width < 2 ? 2 : width);
    if (depth > w) throw new ParameterError(`cmsketch depth must not exceed its width: depth ${depth}, prime width ${w}`);
    return CountMinSketch.empty(w, depth, copies, seed, code);
  }

  /** @private */
  static empty(w, d, copies, seed, family) {
    if (cmsStoredBytes(w, d, copies) > CMS_MAX_BYTES) {
      throw new TooLargeError(`cmsketch of ${cmsStoredBytes(w, d, copies)} bytes is larger than the largest, ${CMS_MAX_BYTES}`);
    }
    return new CountMinSketch({
      version: 2, family: 0, tag: 0, w, d, copies, seed: BigInt.asUintN(64, BigInt(seed)), total: 0n,
      counters: new BigUint64Array(w * d * copies),
    }, family);
  }

  /** The binary form, as the bytea cast gives it. */
  toBytes() {
    return encodeCms(this.s);
  }

  /** The text form, as the type's output gives it. */
  toText() {
    return cmsText(this.s);
  }

  /** The value family's name. */
  get family() {
    return familyToken(this.s.family, this.s.tag);
  }

  /** @private */
  indexes(value, family) {
    if (family === FAMILY_OTHER) {
      throw new UnsupportedError(`this sketch holds values of family ${this.family}, which this library does not hash; estimate in SQL`);
    }
    checkProbeVersion(this.s.version, this.s.family, 'cmsketch');
    const { w, d, copies, seed } = this.s;
    return cmsIndexes(canonicalBytes(family, value), w, d, copies, seed, this.ranges);
  }

  /**
   * The estimated count of `value` (cms_estimate): never below the true one.
   * @param {unknown} value @returns {bigint}
   */
  estimate(value) {
    if (this.s.family === 0) return 0n;
    let smallest = M64;
    for (const i of this.indexes(value, this.s.family)) if (this.s.counters[i] < smallest) smallest = this.s.counters[i];
    return smallest;
  }

  /**
   * Add `count` occurrences of `value` in place (cms_add).
   * @param {unknown} value @param {bigint | number} [count] @param {string} [family]
   * @returns {this}
   */
  add(value, count = 1n, family) {
    const n = BigInt(count);
    if (n < 0n) throw new ParameterError('cmsketch counts must not be negative');
    let code = this.s.family || this.buildFamily;
    if (family !== undefined) {
      const asked = hashableFamily(family);
      if (this.s.family && this.s.family !== asked) throw new ParameterError(`cmsketch holds ${this.family} values, not ${family} values`);
      code = asked;
      if (!this.s.family) this.buildFamily = asked;
    }
    if (code === 0) throw new ParameterError('this sketch holds no values yet: pass the family to add as, add(value, count, family)');
    const indexes = this.indexes(value, code);
    if (this.s.total + n > INT64_MAX) throw new ParameterError('cmsketch total would pass the largest bigint');
    for (const i of indexes) this.s.counters[i] += n;
    this.s.family = code;
    this.s.total += n;
    return this;
  }

  /** A new sketch of both streams (cms_merge, `+`). @param {CountMinSketch} other */
  merge(other) {
    const a = this.s;
    const b = other.s;
    if (a.w !== b.w || a.d !== b.d || a.copies !== b.copies || a.seed !== b.seed) {
      throw new MismatchError(`cmsketches do not combine: w=${a.w} d=${a.d} copies=${a.copies} and w=${b.w} d=${b.d} copies=${b.copies}, or their seeds differ`);
    }
    if (a.family && b.family && (a.family !== b.family || a.tag !== b.tag)) {
      throw new MismatchError(`cmsketches do not combine: families ${this.family} and ${other.family}`);
    }
    const version = combineVersions(a, b, 'cmsketch');
    const counters = new BigUint64Array(a.counters.length);
    for (let i = 0; i < counters.length; i++) {
      const sum = a.counters[i] + b.counters[i];
      if (sum > M64) throw new ParameterError('cmsketch counter would overflow');
      counters[i] = sum;
    }
    const source = a.family ? a : b;
    const merged = { ...a, version, family: source.family, tag: source.tag, counters, total: 0n };
    merged.total = smallestRowSum(merged);
    return new CountMinSketch(merged, this.buildFamily || other.buildFamily);
  }

  /** The fields of cms_info(sketch). @returns {CmsInfo} */
  info() {
    const { w, d, copies } = this.s;
    const epsilon = Math.min(1.0, (2.0 * Math.E) / w);
    const bound = Math.min(1.0, failureBound(epsilon, w, d));
    return {
      width: w, depth: d, copies, epsilon, delta: bound ** copies, seed: BigInt.asIntN(64, this.s.seed),
      family: this.family, total: this.s.total, bytes: cmsStoredBytes(w, d, copies), formatVersion: this.s.version,
    };
  }

  /** Same parameters and counters (SQL's `=`). @param {CountMinSketch} other */
  equals(other) {
    const a = this.toBytes();
    const b = other.toBytes();
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }
}

/** The smallest prime at or above n, within the widths a sketch can have. */
function nextPrimeWidth(n) {
  if (n > 93750000) throw new TooLargeError(`cmsketch width ${n} is larger than the largest sketch allows`);
  return nextPrime(n);
}
