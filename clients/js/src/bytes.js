/**
 * Little-endian integers, hex and RFC 4648 base64 over Uint8Array, without
 * Node-only APIs.
 * @module
 */

export const M64 = (1n << 64n) - 1n;

/** @param {Uint8Array} b @param {number} at */
export function u16(b, at) {
  return b[at] | (b[at + 1] << 8);
}

/** @param {Uint8Array} b @param {number} at */
export function u32(b, at) {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

/** @param {Uint8Array} b @param {number} at */
export function u64(b, at) {
  return (BigInt(u32(b, at + 4)) << 32n) | BigInt(u32(b, at));
}

/** @param {Uint8Array} b @param {number} at @param {number} v */
export function put16(b, at, v) {
  b[at] = v & 0xff;
  b[at + 1] = (v >>> 8) & 0xff;
}

/** @param {Uint8Array} b @param {number} at @param {number} v */
export function put32(b, at, v) {
  for (let i = 0; i < 4; i++) b[at + i] = (v >>> (8 * i)) & 0xff;
}

/** @param {Uint8Array} b @param {number} at @param {bigint} v (taken modulo 2^64) */
export function put64(b, at, v) {
  v = BigInt.asUintN(64, v);
  put32(b, at, Number(v & 0xffffffffn));
  put32(b, at + 4, Number(v >> 32n));
}

/** The 8 bytes of a 64-bit two's-complement value. @param {bigint} v */
export function le64(v) {
  const out = new Uint8Array(8);
  put64(out, 0, v);
  return out;
}

/** @param {Uint8Array} b @returns {string} */
export function toHex(b) {
  let s = '';
  for (let i = 0; i < b.length; i++) s += b[i].toString(16).padStart(2, '0');
  return s;
}

/** @param {string} s @returns {Uint8Array} */
export function fromHex(s) {
  if (s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) throw new TypeError('not a hex string');
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** Standard base64 with padding, no line breaks. @param {Uint8Array} b */
export function toBase64(b) {
  const chunks = [];
  for (let start = 0; start < b.length; start += 3 * 8192) {
    const parts = [];
    const end = Math.min(b.length, start + 3 * 8192);
    for (let i = start; i < end; i += 3) {
      const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
      const left = b.length - i;
      parts.push(
        ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] +
        (left > 1 ? ALPHABET[(n >> 6) & 63] : '=') + (left > 2 ? ALPHABET[n & 63] : '='));
    }
    chunks.push(parts.join(''));
  }
  return chunks.join('');
}

/**
 * Decode base64; null when the text is not base64 of the standard alphabet
 * with padding.  Non-canonical spellings (nonzero unused bits) are caught by
 * the callers, which compare the text they would write.
 * @param {string} s @returns {Uint8Array | null}
 */
export function fromBase64(s) {
  if (s.length % 4 !== 0) return null;
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((s.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < s.length; i += 4) {
    let n = 0;
    for (let j = 0; j < 4; j++) {
      const c = s.charCodeAt(i + j);
      let v;
      if (c === 61 && i + 4 === s.length && j >= 4 - pad) v = 0;
      else v = c < 128 ? DECODE[c] : -1;
      if (v < 0) return null;
      n = (n << 6) | v;
    }
    if (o < out.length) out[o++] = n >> 16;
    if (o < out.length) out[o++] = (n >> 8) & 0xff;
    if (o < out.length) out[o++] = n & 0xff;
  }
  return out;
}

/** Number of bits set. @param {Uint8Array} b */
export function popcount(b) {
  let count = 0;
  for (let i = 0; i < b.length; i++) {
    let x = b[i];
    x = x - ((x >> 1) & 0x55);
    x = (x & 0x33) + ((x >> 2) & 0x33);
    count += (x + (x >> 4)) & 0x0f;
  }
  return count;
}

/** Unsigned byte-string order, a prefix first. @param {Uint8Array} a @param {Uint8Array} b */
export function compareBytes(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** @param {Uint8Array} a @param {Uint8Array} b */
export function equalBytes(a, b) {
  return a.length === b.length && compareBytes(a, b) === 0;
}

/** A 64-bit pattern as a signed decimal, as SQL's bigint prints it. @param {bigint} v */
export function signedText(v) {
  return BigInt.asIntN(64, v).toString();
}
