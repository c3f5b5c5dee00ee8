/**
 * TopKSketch: reads topksketch summaries (read only) and lists their values
 * as topk_items does.
 * @module
 */
import { compareBytes, toHex } from './bytes.js';
import { FAMILY_OTHER, canonicalBytes, familyToken } from './families.js';
import { UnsupportedError } from './errors.js';
import { PG_EPOCH_MS } from './families.js';
import { decodeTopk, encodeTopk, parseTopkText, topkText } from './topk_codec.js';

const UTF8 = new TextDecoder('utf-8');
const DATE_INFINITY = (1n << 31n) - 1n;
const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

/**
 * @typedef {object} TopkItem  one row of topk_items(summary)
 * @property {unknown} value  the value as JavaScript: bigint (integer), string (text, uuid,
 *   numeric, other: its text), Uint8Array (bytea), number (float), boolean, Date or ±Infinity
 *   (date, timestamp, timestamptz; a Date keeps milliseconds, see micros)
 * @property {Uint8Array} key  the canonical bytes
 * @property {bigint} count
 * @property {bigint} lowerBound
 * @property {bigint} upperBound
 * @property {bigint} [micros]  timestamp families: microseconds since 2000-01-01 (UTC)
 */

/**
 * @typedef {object} TopkInfo  the fields of topk_info(summary)
 * @property {number} counters
 * @property {number} entries
 * @property {bigint} total
 * @property {bigint} maxError
 * @property {number} errorBound  N / (c + 1)
 * @property {string} family
 * @property {number} bytes
 * @property {number} formatVersion
 */

/** A key's value as JavaScript. @param {number} family @param {import('./topk_codec.js').TopkEntry} e */
function valueOf(family, e) {
  const key = e.key;
  const view = new DataView(key.buffer, key.byteOffset, key.byteLength);
  switch (family) {
    case 1: return view.getBigInt64(0, true);
    case 2: return UTF8.decode(key);
    case 3: return key.slice();
    case 4: {
      const h = toHex(key);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    }
    case 6: return view.getFloat64(0, true);
    case 7: return key[0] === 1;
    case 8: {
      const days = view.getBigInt64(0, true);
      if (days === DATE_INFINITY) return Infinity;
      if (days === -DATE_INFINITY - 1n) return -Infinity;
      return new Date(PG_EPOCH_MS + Number(days) * 86400000);
    }
    case 9: case 10: {
      const micros = view.getBigInt64(0, true);
      if (micros === INT64_MAX) return Infinity;
      if (micros === INT64_MIN) return -Infinity;
      return new Date(PG_EPOCH_MS + Number(micros / 1000n - (micros % 1000n < 0n ? 1n : 0n)));
    }
    default:
      // numeric and other: the stored text, else the key's bytes
      return UTF8.decode(e.text ?? key);
  }
}

export class TopKSketch {
  /** @param {import('./topk_codec.js').TopkFields} fields */
  constructor(fields) {
    /** @private */
    this.s = fields;
  }

  /** A summary from its binary form, validated. @param {Uint8Array} bytes */
  static fromBytes(bytes) {
    return new TopKSketch(decodeTopk(bytes));
  }

  /** A summary from its text form (topk:v1:...), validated. @param {string} text */
  static fromText(text) {
    return new TopKSketch(parseTopkText(text));
  }

  /** The binary form, as the bytea cast gives it. */
  toBytes() {
    return encodeTopk(this.s);
  }

  /** The text form, as the type's output gives it. */
  toText() {
    return topkText(this.s);
  }

  /** The value family's name. */
  get family() {
    return familyToken(this.s.family, this.s.tag);
  }

  /**
   * The listed values as topk_items lists them: by lower bound descending,
   * then count descending, then key ascending.
   * @returns {TopkItem[]}
   */
  items() {
    const { family, error } = this.s;
    const rows = this.s.entries.slice().sort((a, b) => {
      if (a.lower !== b.lower) return a.lower > b.lower ? -1 : 1;
      if (a.count !== b.count) return a.count > b.count ? -1 : 1;
      return compareBytes(a.key, b.key);
    });
    return rows.map((e) => {
      const item = {
        value: valueOf(family, e), key: e.key.slice(), count: e.lower, lowerBound: e.lower,
        upperBound: e.count + error,
      };
      if (family === 9 || family === 10) {
        item.micros = new DataView(e.key.buffer, e.key.byteOffset, 8).getBigInt64(0, true);
      }
      return item;
    });
  }

  /** @private the entry of a value, or null when it is not listed */
  find(value) {
    const { family } = this.s;
    if (family === 0) return null;
    if (family === FAMILY_OTHER) {
      throw new UnsupportedError(`this summary holds values of family ${this.family}, which this library does not hash; ask SQL`);
    }
    const key = canonicalBytes(family, value);
    let low = 0;
    let high = this.s.entries.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const order = compareBytes(this.s.entries[mid].key, key);
      if (order === 0) return this.s.entries[mid];
      if (order < 0) low = mid + 1;
      else high = mid - 1;
    }
    return null;
  }

  /**
   * The occurrences of `value` the summary counted (topk_estimate): its
   * count in items() when listed, else 0n.  The summary's family decides
   * how the value is read.
   * @param {unknown} value @returns {bigint}
   */
  estimate(value) {
    return this.find(value)?.lower ?? 0n;
  }

  /**
   * Bounds of the true count of `value` (topk_bounds): a listed value's
   * lowerBound and upperBound, any other 0 and the summary's max error.
   * @param {unknown} value @returns {{ lowerBound: bigint, upperBound: bigint }}
   */
  bounds(value) {
    const e = this.find(value);
    if (!e) return { lowerBound: 0n, upperBound: this.s.error };
    return { lowerBound: e.lower, upperBound: e.count + this.s.error };
  }

  /** The fields of topk_info(summary). @returns {TopkInfo} */
  info() {
    const s = this.s;
    return {
      counters: s.counters, entries: s.entries.length, total: s.total, maxError: s.error,
      errorBound: Number(s.total) / (s.counters + 1), family: this.family,
      bytes: 48 + s.bytes, formatVersion: s.version,
    };
  }
}

export { FAMILY_OTHER };
