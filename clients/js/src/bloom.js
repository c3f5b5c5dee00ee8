/**
 * BloomFilter: reads, probes, builds and combines bloomfilter values byte
 * for byte as the server does.
 * @module
 */
import { MismatchError, ParameterError, UnsupportedError } from './errors.js';
import { M64, popcount, signedText } from './bytes.js';
import { FAMILIES, FAMILY_OTHER, canonicalBytes, familyToken, hashableFamily } from './families.js';
import { Prober } from './probe.js';
import {
  HEADER, MAX_BITS, MAX_HASHES, bitBytes, bloomText, decodeBloom, encodeBloom, parseBloomText,
  schemeToken, shapeProblem,
} from './bloom_codec.js';
import { combineVersions, checkProbeVersion } from './versions.js';
import { buildFitFields } from './fit.js';

const INT64_MAX = (1n << 63n) - 1n;
const FIT_MIXED = 2;

/**
 * @typedef {object} BloomInfo  the stored fields of bloom_info(filter)
 * @property {number} bits
 * @property {number} hashes
 * @property {bigint} seed  signed, as SQL's bigint
 * @property {string} scheme
 * @property {string} family
 * @property {number} bitsSet
 * @property {bigint} itemsAdded  at most 2^63 - 1, as the bigint column
 * @property {number} bytes  the stored size with its 4-byte varlena header
 * @property {number} formatVersion
 * @property {boolean} overCeiling
 * @property {number} [estimatedItems]  fit filters of one size only: bloom_cardinality
 * @property {number} [currentFpr]  fit filters only: bloom_fpr, (s/m)^k
 */

export class BloomFilter {
  /**
   * Use BloomFilter.fromBytes, fromText, create or fit.
   * @param {import('./bloom_codec.js').BloomFields} fields
   * @param {number} [buildFamily] the family values are added as while the filter has none
   */
  constructor(fields, buildFamily = 0) {
    /** @private */
    this.f = fields;
    /** @private */
    this.buildFamily = buildFamily;
    /** @private */
    this.prober = null;
  }

  /**
   * A filter from its binary form (the bytea cast, binary COPY), validated.
   * @param {Uint8Array} bytes
   */
  static fromBytes(bytes) {
    const fields = decodeBloom(bytes);
    if (fields.scheme === 'fit_partial') refuseState();
    return new BloomFilter(fields);
  }

  /**
   * A filter from its text form (bloom:v2:...), validated.
   * @param {string} text
   */
  static fromText(text) {
    return new BloomFilter(parseBloomText(text));
  }

  /**
   * An empty filter of an explicit shape, for the values of `family`: the
   * filter bloom_create gives for the same bits, hashes, scheme and seed
   * (its sizing is read with bloom_info; see the README).
   * @param {{ bits: number, hashes: number, family: string, scheme?: string, seed?: bigint | number }} options
   */
  static create({ bits, hashes, family, scheme = 'double', seed = 0n }) {
    const code = hashableFamily(family);
    if (scheme === 'fit_partial') throw new ParameterError('fit_partial is the state of bloom_fit_agg, not a scheme to build');
    if (!Number.isSafeInteger(bits) || bits < 1) throw new ParameterError(`bits must be a positive integer, not ${bits}`);
    if (bits > MAX_BITS) throw new ParameterError(`bloomfilter of ${bits} bits is larger than the largest, ${MAX_BITS}`);
    if (!Number.isInteger(hashes) || hashes < 1 || hashes > MAX_HASHES || hashes > bits) {
      throw new ParameterError(`hashes must be between 1 and ${Math.min(MAX_HASHES, bits)}, not ${hashes}`);
    }
    const problem = shapeProblem(scheme, bits, hashes);
    if (problem) throw new ParameterError(problem);
    const fields = {
      version: 2, scheme, family: 0, flags: 0, k: hashes, tag: 0, m: bits,
      seed: BigInt.asUintN(64, BigInt(seed)), items: 0n, bits: new Uint8Array(bitBytes(bits)),
    };
    return new BloomFilter(fields, code);
  }

  /**
   * The filter bloom_fit_agg(value, fpr, maxBits) returns for these values
   * (scheme fit, self-sized), hashed as values of `family`; null (as SQL's
   * NULL) when there are no non-null values.
   * @param {Iterable<unknown>} values
   * @param {{ family: string, fpr?: number, maxBits?: number }} options
   * @returns {BloomFilter | null}
   */
  static fit(values, { family, fpr = 0.01, maxBits = 2 ** 27 }) {
    const code = hashableFamily(family);
    const fields = buildFitFields(values, code, fpr, maxBits);
    return fields && new BloomFilter(fields, code);
  }

  /**
   * The k bit positions, in probe order, of `value` in a filter of this
   * shape (docs/format.md section 4), without building one.
   * @param {unknown} value
   * @param {{ bits: number, hashes: number, family: string, scheme?: string, seed?: bigint | number }} shape
   * @returns {number[]}
   */
  static positionsOf(value, { bits, hashes, family, scheme = 'double', seed = 0n }) {
    const problem = shapeProblem(scheme, bits, hashes);
    if (problem || scheme === 'fit_partial') throw new ParameterError(problem ?? 'fit_partial has no positions');
    const prober = new Prober(scheme, bits, hashes, BigInt.asUintN(64, BigInt(seed)));
    return prober.positions(canonicalBytes(hashableFamily(family), value));
  }

  /** The binary form, as the bytea cast gives it. */
  toBytes() {
    if (this.f.scheme === 'fit_partial') refuseState();
    return encodeBloom(this.f);
  }

  /** The text form, as the type's output gives it. */
  toText() {
    return bloomText(this.f);
  }

  /** The value family's name (as the text form writes it). */
  get family() {
    return familyToken(this.f.family, this.f.tag);
  }

  /** @private @returns {Prober} */
  probe() {
    if (this.f.scheme === 'fit_partial') refuseState();
    if (!this.prober) this.prober = new Prober(this.f.scheme, this.f.m, this.f.k, this.f.seed);
    return this.prober;
  }

  /** @private the family values are hashed as, or an error */
  hashFamily() {
    const family = this.f.family || this.buildFamily;
    if (family === FAMILY_OTHER) {
      throw new UnsupportedError(`this filter holds values of family ${this.family} (arrays, ranges, records, ` +
        'jsonb, time, interval, inet or macaddr), which this library does not hash; probe it in SQL');
    }
    return family;
  }

  /**
   * false: `value` was certainly never added; true: it probably was.  The
   * filter's family decides how the value is hashed.  An empty filter
   * (family none) answers false.
   * @param {unknown} value
   */
  contains(value) {
    const prober = this.probe();
    if (this.f.family === 0) return false;
    checkProbeVersion(this.f.version, this.f.family, 'bloomfilter');
    const data = canonicalBytes(this.hashFamily(), value);
    const bits = this.f.bits;
    for (const g of prober.positions(data)) if (!(bits[g >> 3] & (1 << (g & 7)))) return false;
    return true;
  }

  /**
   * Add a value in place (as bloom_add, or the aggregate, adds it), hashed
   * as a value of the filter's family; a filter without values takes the
   * family it was created for, or `family`.
   * @param {unknown} value
   * @param {string} [family]
   * @returns {this}
   */
  add(value, family) {
    const prober = this.probe();
    if (family !== undefined) {
      const code = hashableFamily(family);
      if (this.f.family !== 0 && this.f.family !== code) {
        throw new ParameterError(`bloomfilter holds ${this.family} values, not ${family} values`);
      }
      if (this.f.family === 0) this.buildFamily = code;
    }
    const code = this.hashFamily();
    if (code === 0) throw new ParameterError('this filter holds no values yet: pass the family to add as, add(value, family)');
    checkProbeVersion(this.f.version, this.f.family, 'bloomfilter');
    const data = canonicalBytes(code, value);
    const bits = this.f.bits;
    for (const g of prober.positions(data)) bits[g >> 3] |= 1 << (g & 7);
    this.f.family = code;
    if (this.f.items < M64) this.f.items += 1n;
    return this;
  }

  /** The fields of bloom_info(filter) that are stored or counted. @returns {BloomInfo} */
  info() {
    this.probe();
    const f = this.f;
    return {
      bits: f.m,
      hashes: f.k,
      seed: BigInt.asIntN(64, f.seed),
      scheme: f.scheme,
      family: this.family,
      bitsSet: popcount(f.bits),
      itemsAdded: f.items > INT64_MAX ? INT64_MAX : f.items,
      bytes: HEADER + 4 + f.bits.length,
      formatVersion: f.version,
      overCeiling: f.scheme === 'fit' && (f.flags & 1) === 1,
      ...(f.scheme === 'fit' ? fitEstimates(f) : {}),
    };
  }

  /** A new filter of A ∪ B (bloom_union, `|`). @param {BloomFilter} other */
  union(other) {
    return this.combine(other, false);
  }

  /** A new filter ANDing the bits (bloom_intersect, `&`). @param {BloomFilter} other */
  intersect(other) {
    return this.combine(other, true);
  }

  /** Same parameters and bits (SQL's `=`). @param {BloomFilter} other */
  equals(other) {
    const a = this.toBytes();
    const b = other.toBytes();
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }

  /** @private @param {BloomFilter} other @param {boolean} intersect */
  combine(other, intersect) {
    const a = this.f;
    const b = other.f;
    this.probe();
    other.probe();
    const fit = a.scheme === 'fit' && b.scheme === 'fit';
    if (a.scheme !== b.scheme || a.k !== b.k || a.seed !== b.seed || (!fit && a.m !== b.m)) {
      throw new MismatchError(`bloomfilters do not combine: ${describeShape(a)} and ${describeShape(b)}`);
    }
    if (a.family && b.family && (a.family !== b.family || a.tag !== b.tag)) {
      throw new MismatchError(`bloomfilters do not combine: families ${this.family} and ${other.family}`);
    }
    const version = combineVersions(a, b, 'bloomfilter');
    const m = Math.max(a.m, b.m);
    const left = tile(a, m);
    const right = tile(b, m);
    const bits = new Uint8Array(left.length);
    for (let i = 0; i < bits.length; i++) bits[i] = intersect ? left[i] & right[i] : left[i] | right[i];
    let items;
    if (intersect) items = a.items < b.items ? a.items : b.items;
    else items = a.items + b.items > M64 ? M64 : a.items + b.items;
    const flags = fit ? a.flags | b.flags | (a.m !== b.m ? FIT_MIXED : 0) : 0;
    const source = a.family ? a : b;
    return new BloomFilter({
      version, scheme: a.scheme, family: source.family, flags, k: a.k, tag: source.tag, m, seed: a.seed,
      items, bits,
    }, this.buildFamily || other.buildFamily);
  }
}

/**
 * The estimates bloom_info computes for a fit filter (docs/format.md
 * section 5): its own rate (s/m)^k, and the count from its fill, which a
 * filter combining different sizes does not have.
 */
function fitEstimates(f) {
  const set = popcount(f.bits);
  const out = { currentFpr: set === f.m ? 1 : (set / f.m) ** f.k };
  if (!(f.flags & FIT_MIXED)) {
    out.estimatedItems = set === f.m ? Infinity : Math.log1p(-set / f.m) / (f.k * Math.log1p(-1 / f.m));
  }
  return out;
}

/** A partial state of bloom_fit_agg: only its text form and the aggregate take it (22023). */
function refuseState() {
  throw new ParameterError('bloomfilter is an unfinished bloom_fit_agg state, which no function but the aggregate reads; ' +
    'use the result of bloom_fit_agg');
}

/** The bits of a fit filter repeated up to m bits (unchanged at its own m). */
function tile(f, m) {
  if (f.m === m) return f.bits;
  const out = new Uint8Array(bitBytes(m));
  if (f.m >= 8) {
    const width = f.m / 8;
    for (let at = 0; at < m / 8; at += width) out.set(f.bits.subarray(0, width), at);
  }
  return out;
}

function describeShape(f) {
  return `${schemeToken(f)} m=${f.m} k=${f.k} seed=${signedText(f.seed)}`;
}

export { FAMILIES };
