/**
 * The binary and text forms of bloomfilter values and their validation
 * (docs/format.md sections 5 and 7).
 * @module
 */
import { FormatError, ParameterError, TooLargeError } from './errors.js';
import { u16, u32, u64, put16, put32, put64, popcount, toBase64, fromBase64, signedText, M64 } from './bytes.js';
import { FAMILIES, FAMILY_OTHER, familyToken, parseFamilyToken } from './families.js';
import { SCHEMES } from './probe.js';
import { isPrime } from './primes.js';
import { checkFitState } from './fit_state.js';

export const HEADER = 36;
export const MAX_BITS = 6000000000;
export const MAX_HASHES = 1024;
export const FIT_TOKENS = ['fit', 'fit_over_ceiling', 'fit_mixed', 'fit_over_ceiling_mixed'];
const NEWEST_VERSION = 2;

/**
 * The fields of a filter.
 * @typedef {object} BloomFields
 * @property {number} version
 * @property {string} scheme
 * @property {number} family
 * @property {number} flags  fit filters: 1 over the ceiling, 2 mixed sizes
 * @property {number} k
 * @property {number} tag
 * @property {number} m
 * @property {bigint} seed
 * @property {bigint} items
 * @property {Uint8Array} bits  8·⌈m/64⌉ bytes
 */

/** @param {number} m */
export function bitBytes(m) {
  return 8 * Math.ceil(m / 64);
}

/** The shape rule of each scheme, or a message. @param {string} scheme @param {number} m @param {number} k */
export function shapeProblem(scheme, m, k) {
  switch (scheme) {
    case 'double': case 'double_square': case 'double_cube':
      return m >= 2 && isPrime(m) ? null : `scheme ${scheme} needs a prime number of bits, not ${m}`;
    case 'partition':
      return m % k === 0 && isPrime(m / k) ? null : `scheme partition needs k times a prime bits, not ${m} for k = ${k}`;
    case 'independent':
      return m >= 2 ? null : 'scheme independent needs at least 2 bits';
    case 'blocked':
      if (m % 512 !== 0 || m === 0) return `scheme blocked needs a positive multiple of 512 bits, not ${m}`;
      return k <= 64 ? null : `scheme blocked has at most 64 hashes, not ${k}`;
    case 'fit':
      return m >= 8 && m <= 2 ** 32 && (m & (m - 1)) === 0 ? null : `scheme fit needs a power of two from 8 to 2^32 bits, not ${m}`;
    case 'fit_partial':
      return m % 64 === 0 && m >= 128 ? null : 'malformed bloom_fit_agg state size';
    default:
      return 'unknown scheme';
  }
}

/**
 * Check every rule of docs/format.md section 7 for a bloomfilter, in the
 * server's order and with its SQLSTATEs: malformed values `code` (22P03
 * binary, 22P02 text), a shape out of range 22023, too large 54000.
 * @param {BloomFields & { reserved16?: number }} f @param {string} code
 */
export function validateBloom(f, code) {
  const fail = (message) => { throw new FormatError(`invalid bloomfilter: ${message}`, code); };
  if (f.version < 1 || f.version > NEWEST_VERSION) fail(`format version ${f.version} is not 1 or 2`);
  if (!f.scheme) fail('unknown probing scheme');
  if (f.family > FAMILY_OTHER) fail(`unknown value family ${f.family}`);
  if ((f.flags !== 0 && !(f.scheme === 'fit' && f.flags <= 3)) || (f.reserved16 ?? 0) !== 0) fail('reserved field is not zero');
  if (f.tag !== 0 && f.family !== FAMILY_OTHER) fail('type tag set for a family other than other');
  if (f.family === 0 && f.items !== 0n) fail('items counted in a filter without values');
  if (f.m > MAX_BITS) throw new TooLargeError(`bloomfilter of ${f.m} bits is larger than the largest, ${MAX_BITS}`);
  if (f.scheme !== 'fit_partial') {
    if (f.k < 1 || f.k > MAX_HASHES) throw new ParameterError(`bloomfilter number of hash functions ${f.k} is out of range 1 to ${MAX_HASHES}`);
    const shape = shapeProblem(f.scheme, f.m, f.k);
    if (shape) throw new ParameterError(`invalid bloomfilter: ${shape}`);
    if (f.k > f.m) throw new ParameterError(`bloomfilter number of hash functions ${f.k} is more than its ${f.m} bits`);
  } else if (f.m % 64 !== 0 || f.m < 128) fail('bloom_fit_agg state has an impossible length');
  if (f.bits.length !== bitBytes(f.m)) fail('length does not match the number of bits');
  if (f.m % 64 !== 0) {
    for (let bit = f.m % 64; bit < 64; bit++) {
      if (f.bits[f.bits.length - 8 + (bit >> 3)] & (1 << (bit & 7))) fail('bits past the end are set');
    }
  }
  if (f.scheme === 'fit_partial') {
    const problem = checkFitState(f);
    if (problem) fail(problem);
  } else if (f.scheme !== 'fit' && BigInt(popcount(f.bits)) > BigInt(f.k) * f.items) {
    fail('more bits set than its items can set');
  }
}

/** @param {Uint8Array} b @returns {BloomFields} */
export function decodeBloom(b, code = '22P03') {
  if (!(b instanceof Uint8Array)) throw new TypeError('bloomfilter bytes must be a Uint8Array');
  if (b.length < HEADER) throw new FormatError('invalid bloomfilter: shorter than its header', code);
  const m = u64(b, 12);
  const f = {
    version: b[0], scheme: SCHEMES[b[1]] ?? null, family: b[2], flags: b[3], k: u16(b, 4),
    tag: u32(b, 8), m: m > BigInt(MAX_BITS) ? Number.MAX_SAFE_INTEGER : Number(m), seed: u64(b, 20), items: u64(b, 28),
    bits: b.slice(HEADER), reserved16: u16(b, 6),
  };
  validateBloom(f, code);
  delete f.reserved16;
  return f;
}

/** @param {BloomFields} f */
export function encodeBloom(f) {
  const out = new Uint8Array(HEADER + f.bits.length);
  out[0] = f.version;
  out[1] = SCHEMES.indexOf(f.scheme);
  out[2] = f.family;
  out[3] = f.flags;
  put16(out, 4, f.k);
  put32(out, 8, f.tag);
  put64(out, 12, BigInt(f.m));
  put64(out, 20, f.seed);
  put64(out, 28, f.items);
  out.set(f.bits, HEADER);
  return out;
}

/** @param {BloomFields} f */
export function schemeToken(f) {
  return f.scheme === 'fit' ? FIT_TOKENS[f.flags] : f.scheme;
}

/** @param {BloomFields} f */
export function bloomText(f) {
  return `bloom:v${f.version}:${schemeToken(f)}:${familyToken(f.family, f.tag)}:k=${f.k}:m=${f.m}` +
    `:seed=${signedText(f.seed)}:items=${f.items}:${toBase64(f.bits)}`;
}

const NUMBER = '(0|[1-9][0-9]*)';
const TEXT_FORM = new RegExp(`^bloom:v${NUMBER}:([a-z_]+):([a-z0-9-]+):k=${NUMBER}:m=${NUMBER}` +
  `:seed=(0|-?[1-9][0-9]*):items=${NUMBER}:([A-Za-z0-9+/=]*)$`);

/** @param {string} text @returns {BloomFields} */
export function parseBloomText(text) {
  const fail = (message) => { throw new FormatError(`invalid input syntax for type bloomfilter: ${message}`, '22P02'); };
  const m = TEXT_FORM.exec(text);
  if (!m) fail('not of the form bloom:v<version>:<scheme>:<family>:k=..:m=..:seed=..:items=..:<base64>');
  const [, version, schemeToken, familyTok, k, bits, seed, items, payload] = m;
  const family = parseFamilyToken(familyTok);
  if (!family) fail(`unknown family "${familyTok}"`);
  let scheme = schemeToken;
  let flags = 0;
  if (FIT_TOKENS.includes(schemeToken)) [scheme, flags] = ['fit', FIT_TOKENS.indexOf(schemeToken)];
  if (!SCHEMES.includes(scheme) || scheme === null) fail(`unknown scheme "${schemeToken}"`);
  const seedValue = BigInt(seed);
  const itemsValue = BigInt(items);
  if (seedValue < -(1n << 63n) || seedValue >= 1n << 63n || itemsValue > M64) fail('number out of range');
  if (Number(bits) > MAX_BITS) throw new TooLargeError(`bloomfilter of ${bits} bits is larger than the largest, ${MAX_BITS}`);
  const decoded = fromBase64(payload);
  if (!decoded) fail('bits are not base64');
  const f = {
    version: Number(version), scheme, family: family.family, flags, k: Number(k), tag: family.tag,
    m: Number(bits), seed: BigInt.asUintN(64, seedValue), items: itemsValue, bits: decoded,
  };
  if (f.version > 255 || f.k > 65535) fail('number out of range');
  validateBloom(f, '22P02');
  if (bloomText(f) !== text) fail('not the one spelling of this value');
  return f;
}

export { FAMILIES };
