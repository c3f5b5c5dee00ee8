/**
 * The binary and text forms of topksketch values, with every check of the
 * validator (docs/format.md section 9).
 * @module
 */
import { FormatError, TooLargeError } from './errors.js';
import { u32, u64, put32, put64, toBase64, fromBase64, compareBytes, M64 } from './bytes.js';
import { FAMILY_OTHER, familyToken, parseFamilyToken } from './families.js';
import { normalizeNumericText } from './numeric.js';

export const TOPK_HEADER = 40;
const MAX_COUNTERS = 1000000;
const MAX_TOTAL = (1n << 63n) - 1n;
const MAX_STORED = 750000000;
const NUMERIC = 5;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * @typedef {object} TopkEntry
 * @property {Uint8Array} key  the value's canonical bytes
 * @property {bigint} lower  the occurrences surely counted
 * @property {bigint} count  the Misra-Gries counter
 * @property {Uint8Array | null} text  the stored text, null when none is stored
 */

/**
 * @typedef {object} TopkFields
 * @property {number} version
 * @property {number} family
 * @property {number} tag
 * @property {number} counters
 * @property {bigint} total
 * @property {bigint} error
 * @property {TopkEntry[]} entries  sorted by key
 * @property {number} bytes  the length of the entries
 */

/** Read one varint at `at`: [value, next offset], or null when malformed. */
function readVarint(b, at, end) {
  let value = 0n;
  for (let i = 0; i < 10; i++) {
    if (at + i >= end) return null;
    const byte = b[at + i];
    value |= BigInt(byte & 0x7f) << BigInt(7 * i);
    if (!(byte & 0x80)) {
      // the fewest bytes: no final zero byte after the first, within 64 bits
      if (i > 0 && byte === 0) return null;
      if (value > M64) return null;
      return [value, at + i + 1];
    }
  }
  return null;
}

/** @param {bigint} v @param {number[]} out */
function writeVarint(v, out) {
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
}

/** Whether bytes are UTF-8 without a zero byte. @param {Uint8Array} b */
function validText(b) {
  if (b.includes(0)) return false;
  try {
    UTF8.decode(b);
    return true;
  } catch {
    return false;
  }
}

/** The rule of each family for its keys (the canonical bytes' shape). */
function keyProblem(family, key) {
  const view = () => new DataView(key.buffer, key.byteOffset, key.byteLength);
  switch (family) {
    case 1: case 9: case 10: return key.length === 8 ? null : 'key of 8 bytes expected';
    case 8: {
      if (key.length !== 8) return 'key of 8 bytes expected';
      const v = view().getBigInt64(0, true);
      return v >= -(1n << 31n) && v < 1n << 31n ? null : 'date key beyond a 32-bit day number';
    }
    case 6: {
      if (key.length !== 8) return 'key of 8 bytes expected';
      const bits = view().getBigUint64(0, true);
      if (bits === 1n << 63n) return 'float key -0';
      const isNaN = (bits & 0x7ff0000000000000n) === 0x7ff0000000000000n && (bits & 0xfffffffffffffn) !== 0n;
      return isNaN && bits !== 0x7ff8000000000000n ? 'float key of a NaN other than the canonical one' : null;
    }
    case 7: return key.length === 1 && key[0] <= 1 ? null : 'bool key must be one byte 0 or 1';
    case 4: return key.length === 16 ? null : 'uuid key of 16 bytes expected';
    case 2: return validText(key) ? null : 'text key is not UTF-8 without zero bytes';
    case 5: {
      const text = validText(key) ? UTF8.decode(key) : null;
      let normal = null;
      try {
        normal = text !== null && /^(NaN|-?Infinity|-?[0-9]+(\.[0-9]+)?)$/.test(text) ? normalizeNumericText(text) : null;
      } catch { /* not a number */ }
      return text !== null && normal === text ? null : 'numeric key is not a normalized decimal';
    }
    default: return null;
  }
}

/** Whether a numeric text is a spelling of its key: -?digits[.digits] normalizing to it. */
function numericSpells(text, key) {
  const s = UTF8.decode(text);
  if (!/^-?[0-9]+(\.[0-9]+)?$/.test(s)) return false;
  return normalizeNumericText(s) === UTF8.decode(key);
}

/** @param {TopkFields} s @param {Uint8Array} b entries region @param {string} code */
function readEntries(s, b, count, code) {
  const fail = (message) => { throw new FormatError(`invalid topksketch: ${message}`, code); };
  const hasTextField = s.family === NUMERIC || s.family === FAMILY_OTHER;
  let at = 0;
  for (let i = 0; i < count; i++) {
    const fields = [];
    for (let f = 0; f < (hasTextField ? 4 : 3); f++) {
      const read = readVarint(b, at, b.length);
      if (!read) fail('malformed varint');
      fields.push(read[0]);
      at = read[1];
    }
    const [lower, slack, keyLength] = fields;
    const textField = hasTextField ? fields[3] : 0n;
    if (keyLength > BigInt(b.length - at)) fail('entry runs past the end');
    const key = b.slice(at, at + Number(keyLength));
    at += Number(keyLength);
    let text = null;
    if (textField > 0n) {
      if (textField - 1n > BigInt(b.length - at)) fail('entry runs past the end');
      text = b.slice(at, at + Number(textField - 1n));
      at += text.length;
    }
    if (lower < 1n || slack > lower || slack > s.error) fail('counts out of range');
    const problem = keyProblem(s.family, key);
    if (problem) fail(problem);
    if (s.entries.length && compareBytes(s.entries[s.entries.length - 1].key, key) >= 0) fail('keys not strictly increasing');
    if (text !== null) {
      if (!validText(text) || compareBytes(text, key) === 0) fail('stored text must differ from the key and be UTF-8 without zero bytes');
      if (s.family === NUMERIC && !numericSpells(text, key)) fail('numeric text does not spell its key');
    }
    s.entries.push({ key, lower, count: lower - slack, text });
  }
  if (at !== b.length) fail('entries do not fill their bytes');
}

/** @param {TopkFields} s @param {string} code */
function checkSums(s, code) {
  const fail = (message) => { throw new FormatError(`invalid topksketch: ${message}`, code); };
  let lowers = 0n;
  let counts = 0n;
  for (const e of s.entries) {
    lowers += e.lower;
    counts += e.count;
  }
  if (lowers > s.total) fail('lower bounds sum past the total');
  if (counts + BigInt(s.counters + 1) * s.error > s.total) fail('counts and error sum past the total');
}

/** @param {Uint8Array} b @returns {TopkFields} */
export function decodeTopk(b, code = '22P03') {
  if (!(b instanceof Uint8Array)) throw new TypeError('topksketch bytes must be a Uint8Array');
  const fail = (message) => { throw new FormatError(`invalid topksketch: ${message}`, code); };
  if (b.length < TOPK_HEADER) fail('shorter than its header');
  const bytes = u64(b, 32);
  if (bytes + 48n > BigInt(MAX_STORED)) throw new TooLargeError(`topksketch of ${bytes + 48n} bytes is larger than the largest, ${MAX_STORED}`);
  const s = {
    version: b[0], family: b[1], tag: u32(b, 4), counters: u32(b, 8), total: u64(b, 16), error: u64(b, 24),
    entries: [], bytes: Number(bytes),
  };
  const count = u32(b, 12);
  if (s.version !== 1) fail(`format version ${s.version} is not 1`);
  if (b[2] !== 0 || b[3] !== 0) fail('reserved field is not zero');
  if (s.family > FAMILY_OTHER) fail(`unknown value family ${s.family}`);
  if (s.tag !== 0 && s.family !== FAMILY_OTHER) fail('type tag set for a family other than other');
  if (s.counters === 0) throw new FormatError('invalid topksketch: counters must be at least 1', '22023');
  if (s.counters > MAX_COUNTERS) throw new TooLargeError(`topksketch of ${s.counters} counters; the largest has ${MAX_COUNTERS}`);
  if (count > s.counters) fail('more entries than counters');
  if (s.error !== 0n && count < s.counters) fail('error without a full set of counters');
  if (s.total > MAX_TOTAL || s.error > s.total) fail('total or error out of range');
  if (s.family === 0 && (s.total !== 0n || count !== 0)) fail('values counted in a summary without a family');
  if (b.length !== TOPK_HEADER + s.bytes) fail('length does not match its bytes field');
  readEntries(s, b.subarray(TOPK_HEADER), count, code);
  checkSums(s, code);
  return s;
}

/** The entries region. @param {TopkFields} s */
function encodeEntries(s) {
  const out = [];
  const hasTextField = s.family === NUMERIC || s.family === FAMILY_OTHER;
  for (const e of s.entries) {
    writeVarint(e.lower, out);
    writeVarint(e.lower - e.count, out);
    writeVarint(BigInt(e.key.length), out);
    if (hasTextField) writeVarint(e.text ? BigInt(e.text.length + 1) : 0n, out);
    out.push(...e.key);
    if (e.text) out.push(...e.text);
  }
  return Uint8Array.from(out);
}

/** @param {TopkFields} s */
export function encodeTopk(s) {
  const entries = encodeEntries(s);
  const out = new Uint8Array(TOPK_HEADER + entries.length);
  out[0] = s.version;
  out[1] = s.family;
  put32(out, 4, s.tag);
  put32(out, 8, s.counters);
  put32(out, 12, s.entries.length);
  put64(out, 16, s.total);
  put64(out, 24, s.error);
  put64(out, 32, BigInt(entries.length));
  out.set(entries, TOPK_HEADER);
  return out;
}

/** @param {TopkFields} s */
export function topkText(s) {
  const entries = encodeEntries(s);
  return `topk:v${s.version}:${familyToken(s.family, s.tag)}:counters=${s.counters}:entries=${s.entries.length}` +
    `:total=${s.total}:error=${s.error}:bytes=${entries.length}:${toBase64(entries)}`;
}

const NUMBER = '(0|[1-9][0-9]*)';
const TEXT_FORM = new RegExp(`^topk:v${NUMBER}:([a-z0-9-]+):counters=${NUMBER}:entries=${NUMBER}` +
  `:total=${NUMBER}:error=${NUMBER}:bytes=${NUMBER}:([A-Za-z0-9+/=]*)$`);

/** @param {string} text @returns {TopkFields} */
export function parseTopkText(text) {
  const fail = (message) => { throw new FormatError(`invalid input syntax for type topksketch: ${message}`, '22P02'); };
  const m = TEXT_FORM.exec(text);
  if (!m) fail('not of the form topk:v<version>:<family>:counters=..:entries=..:total=..:error=..:bytes=..:<base64>');
  const [, version, familyTok, counters, entries, total, error, bytes, payload] = m;
  const family = parseFamilyToken(familyTok);
  if (!family) fail(`unknown family "${familyTok}"`);
  if (Number(version) > 255 || Number(counters) > 0xffffffff || Number(entries) > 0xffffffff
      || BigInt(total) > M64 || BigInt(error) > M64) fail('number out of range');
  const body = fromBase64(payload);
  if (!body) fail('entries are not base64');
  if (BigInt(bytes) !== BigInt(body.length)) fail('bytes does not match the entries');
  const b = new Uint8Array(TOPK_HEADER + body.length);
  b[0] = Number(version);
  b[1] = family.family;
  put32(b, 4, family.tag);
  put32(b, 8, Number(counters));
  put32(b, 12, Number(entries));
  put64(b, 16, BigInt(total));
  put64(b, 24, BigInt(error));
  put64(b, 32, BigInt(body.length));
  b.set(body, TOPK_HEADER);
  const s = decodeTopk(b, '22P02');
  if (topkText(s) !== text) fail('not the one spelling of this value');
  return s;
}
