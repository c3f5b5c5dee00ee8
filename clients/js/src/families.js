/**
 * Value families (docs/format.md section 1): their codes and text tokens,
 * and the canonical bytes of JavaScript values, hashed exactly as SQL hashes
 * the values of the family a filter or sketch holds.
 * @module
 */
import { ParameterError, UnsupportedError } from './errors.js';
import { le64 } from './bytes.js';
import { describe, numericText } from './numeric.js';

/** Family names by code. */
export const FAMILIES = ['none', 'integer', 'text', 'bytea', 'uuid', 'numeric', 'float', 'bool',
  'date', 'timestamp', 'timestamptz', 'other'];
export const FAMILY_OTHER = 11;

/** @typedef {'integer'|'text'|'bytea'|'uuid'|'numeric'|'float'|'bool'|'date'|'timestamp'|'timestamptz'} Family */

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const MS_PER_DAY = 86400000;
// 2000-01-01, PostgreSQL's epoch, in Unix milliseconds and days
const PG_EPOCH_MS = 946684800000;
const PG_EPOCH_DAYS = 10957;
// the earliest date and timestamp, 4714-11-24 BC (Julian day 0)
const MIN_DAY = -2451545;
const DATE_INFINITY = (1n << 31n) - 1n;
const TEXT_ENCODER = new TextEncoder();

/** The family token of the text forms: a name, or other-%08x. @param {number} family @param {number} tag */
export function familyToken(family, tag) {
  return family === FAMILY_OTHER ? 'other-' + tag.toString(16).padStart(8, '0') : FAMILIES[family];
}

/** (family, tag) of a token, or null. @param {string} token */
export function parseFamilyToken(token) {
  const other = /^other-([0-9a-f]{8})$/.exec(token);
  if (other) return { family: FAMILY_OTHER, tag: parseInt(other[1], 16) };
  const family = FAMILIES.indexOf(token);
  if (family < 0 || family === FAMILY_OTHER) return null;
  return { family, tag: 0 };
}

/**
 * The code of a family a client may hash, or an error that says why not.
 * @param {string} name
 * @returns {number}
 */
export function hashableFamily(name) {
  const code = FAMILIES.indexOf(name);
  if (code >= 1 && code < FAMILY_OTHER) return code;
  if (name === 'other' || name.startsWith('other-')) {
    throw new UnsupportedError('values of family other (arrays, ranges, records, jsonb, time, ' +
      'interval, inet, macaddr) are not hashed by this library; probe them in SQL, or build the ' +
      'filter over a scalar such as value::text');
  }
  throw new ParameterError(`unknown value family "${name}"; use one of ${FAMILIES.slice(1, FAMILY_OTHER).join(', ')}`);
}

/** @param {unknown} value @param {string} family */
function refuse(value, family, takes) {
  return new ParameterError(`a ${family} value must be ${takes}, not ${describe(value)}`);
}

/** @param {unknown} value */
function integerBytes(value) {
  let v;
  if (typeof value === 'bigint') v = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) v = BigInt(value);
  else if (typeof value === 'number' && Number.isInteger(value)) {
    throw new ParameterError(`integer ${value} is beyond Number.MAX_SAFE_INTEGER; pass it as a bigint`);
  } else throw refuse(value, 'integer', 'a bigint or a safe integer number');
  if (v < INT64_MIN || v > INT64_MAX) throw new ParameterError(`integer ${v} is out of range for bigint`);
  return le64(v);
}

/** @param {unknown} value */
function textBytes(value) {
  if (typeof value !== 'string') throw refuse(value, 'text', 'a string');
  // a lone surrogate has no UTF-8 form; PostgreSQL text has no NUL
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value)) {
    throw new ParameterError('text value holds a lone UTF-16 surrogate, which has no UTF-8 form');
  }
  if (value.includes('\0')) throw new ParameterError('text value holds a NUL character, which PostgreSQL text cannot store');
  return TEXT_ENCODER.encode(value);
}

/** @param {unknown} value */
function uuidBytes(value) {
  if (value instanceof Uint8Array && value.length === 16) return Uint8Array.from(value);
  if (typeof value !== 'string') throw refuse(value, 'uuid', 'a UUID string or 16 bytes');
  // uuid_in: optional braces, 32 hex digits, a hyphen allowed after any group of four
  let body = value;
  if (body.startsWith('{') && body.endsWith('}')) body = body.slice(1, -1);
  const out = new Uint8Array(16);
  let digits = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '-' && digits > 0 && digits < 32 && digits % 4 === 0 && body[i - 1] !== '-') continue;
    if (!/[0-9a-fA-F]/.test(c) || digits >= 32) throw new ParameterError(`invalid input syntax for type uuid: "${value}"`);
    out[digits >> 1] |= parseInt(c, 16) << ((digits & 1) ? 0 : 4);
    digits++;
  }
  if (digits !== 32) throw new ParameterError(`invalid input syntax for type uuid: "${value}"`);
  return out;
}

/** @param {unknown} value */
function floatBytes(value) {
  let d;
  if (typeof value === 'number') d = value;
  else if (typeof value === 'bigint') d = Number(value);  // as int8::float8, round to nearest
  else throw refuse(value, 'float', 'a number or a bigint');
  const out = new Uint8Array(8);
  if (Number.isNaN(d)) out.set([0, 0, 0, 0, 0, 0, 0xf8, 0x7f]);
  else new DataView(out.buffer).setFloat64(0, d === 0 ? 0 : d, true);
  return out;
}

/** Days since 2000-01-01 of a Date at midnight UTC. @param {unknown} value */
function dateBytes(value) {
  if (value === Infinity) return le64(DATE_INFINITY);
  if (value === -Infinity) return le64(-DATE_INFINITY - 1n);
  if (!(value instanceof Date)) throw refuse(value, 'date', 'a Date at midnight UTC or ±Infinity');
  const ms = value.getTime();
  if (Number.isNaN(ms)) throw new ParameterError('invalid Date');
  if (ms % MS_PER_DAY !== 0) {
    throw new ParameterError(`Date ${value.toISOString()} is not at midnight UTC; a date filter ` +
      'takes the day as new Date(Date.UTC(year, month, day))');
  }
  const days = ms / MS_PER_DAY - PG_EPOCH_DAYS;
  if (days < MIN_DAY) throw new ParameterError('date out of range: before 4714-11-24 BC');
  return le64(BigInt(days));
}

/** Microseconds since 2000-01-01 00:00 UTC of a Date. @param {unknown} value @param {string} family */
function timestampBytes(value, family) {
  if (value === Infinity) return le64(INT64_MAX);
  if (value === -Infinity) return le64(INT64_MIN);
  if (!(value instanceof Date)) throw refuse(value, family, 'a Date or ±Infinity');
  const ms = value.getTime();
  if (Number.isNaN(ms)) throw new ParameterError('invalid Date');
  if (Math.floor(ms / MS_PER_DAY) - PG_EPOCH_DAYS < MIN_DAY) {
    throw new ParameterError(`${family} out of range: before 4714-11-24 BC`);
  }
  return le64(BigInt(ms - PG_EPOCH_MS) * 1000n);
}

/**
 * The canonical bytes of a JavaScript value hashed as a value of `family`
 * (a code 1-10), as SQL hashes the value of that family's types.
 * @param {number} family
 * @param {unknown} value
 * @returns {Uint8Array}
 */
export function canonicalBytes(family, value) {
  switch (family) {
    case 1: return integerBytes(value);
    case 2: return textBytes(value);
    case 3:
      if (value instanceof Uint8Array) return value;
      throw refuse(value, 'bytea', 'a Uint8Array');
    case 4: return uuidBytes(value);
    case 5: return TEXT_ENCODER.encode(numericText(value));
    case 6: return floatBytes(value);
    case 7:
      if (typeof value === 'boolean') return Uint8Array.of(value ? 1 : 0);
      throw refuse(value, 'bool', 'a boolean');
    case 8: return dateBytes(value);
    case 9: return timestampBytes(value, 'timestamp');
    case 10: return timestampBytes(value, 'timestamptz');
    default:
      throw new UnsupportedError(`values of family ${FAMILIES[family] ?? family} are not hashed by this library`);
  }
}

export { PG_EPOCH_MS, MS_PER_DAY, PG_EPOCH_DAYS };
