/**
 * The binary and text forms of cmsketch values and their validation
 * (docs/format.md sections 6 and 7).
 * @module
 */
import { FormatError, ParameterError, TooLargeError } from './errors.js';
import { u16, u32, u64, put16, put32, put64, toBase64, fromBase64, signedText, M64 } from './bytes.js';
import { FAMILY_OTHER, familyToken, parseFamilyToken } from './families.js';
import { isPrime } from './primes.js';

export const CMS_HEADER = 32;
export const CMS_MAX_BYTES = 750000000;
const NEWEST_VERSION = 2;

/**
 * @typedef {object} CmsFields
 * @property {number} version
 * @property {number} family
 * @property {number} tag
 * @property {number} w
 * @property {number} d
 * @property {number} copies
 * @property {bigint} seed
 * @property {bigint} total
 * @property {BigUint64Array} counters  copies·d·w, copy-major then row-major
 */

/** The stored size with the varlena header: 40 + 8·copies·d·w. */
export function cmsStoredBytes(w, d, copies) {
  return 40 + 8 * copies * d * w;
}

/** The smallest row sum over every row of every copy. @param {CmsFields} s */
export function smallestRowSum(s) {
  let smallest = null;
  for (let row = 0; row < s.copies * s.d; row++) {
    let sum = 0n;
    for (let col = 0; col < s.w; col++) sum += s.counters[row * s.w + col];
    if (smallest === null || sum < smallest) smallest = sum;
  }
  return smallest ?? 0n;
}

/**
 * The header checks of a cmsketch, in the server's order and with its
 * SQLSTATEs (malformed `code`, dimensions out of range 22023, too large 54000).
 * @param {{ version: number, reserved: number, family: number, tag: number, total: bigint, w: number, d: number, copies: number }} h
 * @param {string} code
 */
function checkCmsHeader(h, code) {
  const fail = (message) => { throw new FormatError(`invalid cmsketch: ${message}`, code); };
  if (h.version < 1 || h.version > NEWEST_VERSION) fail(`format version ${h.version} is not 1 or 2`);
  if (h.reserved !== 0) fail('reserved field is not zero');
  if (h.family > FAMILY_OTHER) fail(`unknown value family ${h.family}`);
  if (h.tag !== 0 && h.family !== FAMILY_OTHER) fail('type tag set for a family other than other');
  if (h.family === 0 && h.total !== 0n) fail('total counted in a sketch without values');
  if (h.d < 1) throw new ParameterError('cmsketch depth must be at least 1');
  if (h.copies < 1) throw new ParameterError('cmsketch number of copies must be at least 1');
  if (h.w < 2) throw new ParameterError(`cmsketch width must be a prime number, not ${h.w}`);
  if (cmsStoredBytes(h.w, h.d, h.copies) > CMS_MAX_BYTES) {
    throw new TooLargeError(`cmsketch of ${cmsStoredBytes(h.w, h.d, h.copies)} bytes is larger than the largest, ${CMS_MAX_BYTES}`);
  }
  if (!isPrime(h.w)) throw new ParameterError(`cmsketch width must be a prime number, not ${h.w}`);
  if (h.d > h.w) throw new ParameterError(`cmsketch depth ${h.d} must not exceed its width ${h.w}`);
}

/** The counters' checks. @param {CmsFields} s @param {string} code */
function checkCounters(s, code) {
  const fail = (message) => { throw new FormatError(`invalid cmsketch: ${message}`, code); };
  if (s.family === 0 && s.counters.some((c) => c !== 0n)) fail('counters set in a sketch without values');
  if (smallestRowSum(s) !== s.total) fail('total is not the smallest row sum');
}

/** @param {Uint8Array} b @returns {CmsFields} */
export function decodeCms(b, code = '22P03') {
  if (!(b instanceof Uint8Array)) throw new TypeError('cmsketch bytes must be a Uint8Array');
  if (b.length < CMS_HEADER) throw new FormatError('invalid cmsketch: shorter than its header', code);
  const h = {
    version: b[0], family: b[1], reserved: u16(b, 2), tag: u32(b, 4), w: u32(b, 8), d: u16(b, 12), copies: u16(b, 14),
    seed: u64(b, 16), total: u64(b, 24),
  };
  checkCmsHeader(h, code);
  if (b.length !== CMS_HEADER + 8 * h.w * h.d * h.copies) throw new FormatError('invalid cmsketch: length does not match its dimensions', code);
  const counters = new BigUint64Array(h.w * h.d * h.copies);
  for (let i = 0; i < counters.length; i++) counters[i] = u64(b, CMS_HEADER + 8 * i);
  const s = { version: h.version, family: h.family, tag: h.tag, w: h.w, d: h.d, copies: h.copies, seed: h.seed, total: h.total, counters };
  checkCounters(s, code);
  return s;
}

/** @param {CmsFields} s */
export function encodeCms(s) {
  const out = new Uint8Array(CMS_HEADER + 8 * s.counters.length);
  out[0] = s.version;
  out[1] = s.family;
  put32(out, 4, s.tag);
  put32(out, 8, s.w);
  put16(out, 12, s.d);
  put16(out, 14, s.copies);
  put64(out, 16, s.seed);
  put64(out, 24, s.total);
  for (let i = 0; i < s.counters.length; i++) put64(out, CMS_HEADER + 8 * i, s.counters[i]);
  return out;
}

/** @param {CmsFields} s */
export function cmsText(s) {
  return `cms:v${s.version}:${familyToken(s.family, s.tag)}:w=${s.w}:d=${s.d}:copies=${s.copies}` +
    `:seed=${signedText(s.seed)}:total=${s.total}:${toBase64(encodeCms(s).subarray(CMS_HEADER))}`;
}

const NUMBER = '(0|[1-9][0-9]*)';
const TEXT_FORM = new RegExp(`^cms:v${NUMBER}:([a-z0-9-]+):w=${NUMBER}:d=${NUMBER}:copies=${NUMBER}` +
  `:seed=(0|-?[1-9][0-9]*):total=${NUMBER}:([A-Za-z0-9+/=]*)$`);

/** @param {string} text @returns {CmsFields} */
export function parseCmsText(text) {
  const fail = (message) => { throw new FormatError(`invalid input syntax for type cmsketch: ${message}`, '22P02'); };
  const m = TEXT_FORM.exec(text);
  if (!m) fail('not of the form cms:v<version>:<family>:w=..:d=..:copies=..:seed=..:total=..:<base64>');
  const [, version, familyTok, w, d, copies, seed, total, payload] = m;
  const family = parseFamilyToken(familyTok);
  if (!family) fail(`unknown family "${familyTok}"`);
  const seedValue = BigInt(seed);
  if (seedValue < -(1n << 63n) || seedValue >= 1n << 63n || BigInt(total) > M64) fail('number out of range');
  if (Number(version) > 255 || Number(w) > 0xffffffff || Number(d) > 0xffff || Number(copies) > 0xffff) fail('number out of range');
  const counters = fromBase64(payload);
  if (!counters) fail('counters are not base64');
  const head = new Uint8Array(CMS_HEADER);
  head[0] = Number(version);
  head[1] = family.family;
  put32(head, 4, family.tag);
  put32(head, 8, Number(w));
  put16(head, 12, Number(d));
  put16(head, 14, Number(copies));
  put64(head, 16, seedValue);
  put64(head, 24, BigInt(total));
  const bytes = new Uint8Array(CMS_HEADER + counters.length);
  bytes.set(head);
  bytes.set(counters, CMS_HEADER);
  const s = decodeCms(bytes, '22P02');
  if (cmsText(s) !== text) fail('not the one spelling of this value');
  return s;
}
