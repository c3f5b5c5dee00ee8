/**
 * XXH3 (64- and 128-bit, seeded), in plain JavaScript with BigInt, written
 * from the XXH3 specification as frozen since xxHash 0.8.0.  Checked against
 * libxxhash's digests by test/xxh3.test.js.
 * @module
 */

const M64 = (1n << 64n) - 1n;
const M32 = 0xffffffffn;
const P32_1 = 0x9e3779b1n;
const P32_2 = 0x85ebca77n;
const P32_3 = 0xc2b2ae3dn;
const P64_1 = 0x9e3779b185ebca87n;
const P64_2 = 0xc2b2ae3d27d4eb4fn;
const P64_3 = 0x165667b19e3779f9n;
const P64_4 = 0x85ebca77c2b2ae63n;
const P64_5 = 0x27d4eb2f165667c5n;
const PMX_1 = 0x165667919e3779f9n;
const PMX_2 = 0x9fb21c651e98df25n;

const SECRET_HEX =
  'b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671f' +
  'cb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c' +
  '3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8' +
  'a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364' +
  'eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e' +
  '2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e';
const K_SECRET = new Uint8Array(192);
for (let i = 0; i < 192; i++) K_SECRET[i] = parseInt(SECRET_HEX.slice(2 * i, 2 * i + 2), 16);

const STRIPE = 64;
const SECRET_MIN = 136;
const MIDSIZE_START = 3;
const MIDSIZE_LAST = 17;
const LASTACC_START = 7;
const MERGEACCS_START = 11;

/** @param {Uint8Array} b @param {number} i */
function r32(b, i) {
  return BigInt((b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0);
}

/** @param {Uint8Array} b @param {number} i */
function r64(b, i) {
  const lo = (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;
  const hi = (b[i + 4] | (b[i + 5] << 8) | (b[i + 6] << 16) | (b[i + 7] << 24)) >>> 0;
  return (BigInt(hi) << 32n) | BigInt(lo);
}

// the default secret's 64-bit words at every byte offset used below
const SECRET64 = new Map();
/** @param {number} i */
function s64(i) {
  let v = SECRET64.get(i);
  if (v === undefined) {
    v = r64(K_SECRET, i);
    SECRET64.set(i, v);
  }
  return v;
}

/** @param {bigint} x */
function swap64(x) {
  let out = 0n;
  for (let i = 0; i < 8; i++) {
    out = (out << 8n) | (x & 0xffn);
    x >>= 8n;
  }
  return out;
}

/** @param {bigint} x */
function swap32(x) {
  return ((x & 0xffn) << 24n) | (((x >> 8n) & 0xffn) << 16n) | (((x >> 16n) & 0xffn) << 8n) | (x >> 24n);
}

/** @param {bigint} x @param {bigint} r */
function rotl64(x, r) {
  return ((x << r) | (x >> (64n - r))) & M64;
}

/** @param {bigint} x @param {bigint} r */
function rotl32(x, r) {
  return ((x << r) | (x >> (32n - r))) & M32;
}

/** The 128-bit product of two 64-bit words, folded by xor of its halves. */
function fold(a, b) {
  const p = a * b;
  return (p ^ (p >> 64n)) & M64;
}

function xxh64Avalanche(h) {
  h ^= h >> 33n;
  h = (h * P64_2) & M64;
  h ^= h >> 29n;
  h = (h * P64_3) & M64;
  return h ^ (h >> 32n);
}

function avalanche(h) {
  h ^= h >> 37n;
  h = (h * PMX_1) & M64;
  return h ^ (h >> 32n);
}

function rrmxmx(h, length) {
  h ^= rotl64(h, 49n) ^ rotl64(h, 24n);
  h = (h * PMX_2) & M64;
  h ^= (h >> 35n) + length;
  h = (h * PMX_2) & M64;
  return h ^ (h >> 28n);
}

function mix16(data, i, secret, s, seed) {
  const lo = r64(data, i);
  const hi = r64(data, i + 8);
  return fold(lo ^ ((r64(secret, s) + seed) & M64), hi ^ ((r64(secret, s + 8) - seed) & M64));
}

// ---- long inputs (> 240 bytes), shared by both widths ----

function customSecret(seed) {
  if (seed === 0n) return K_SECRET;
  const out = new Uint8Array(192);
  const view = new DataView(out.buffer);
  for (let i = 0; i < 192; i += 16) {
    view.setBigUint64(i, (r64(K_SECRET, i) + seed) & M64, true);
    view.setBigUint64(i + 8, (r64(K_SECRET, i + 8) - seed) & M64, true);
  }
  return out;
}

function accumulate(acc, data, i, secret, s) {
  for (let lane = 0; lane < 8; lane++) {
    const value = r64(data, i + 8 * lane);
    const key = value ^ r64(secret, s + 8 * lane);
    acc[lane ^ 1] = (acc[lane ^ 1] + value) & M64;
    acc[lane] = (acc[lane] + (key & M32) * (key >> 32n)) & M64;
  }
}

function scramble(acc, secret, s) {
  for (let lane = 0; lane < 8; lane++) {
    let a = acc[lane];
    a ^= a >> 47n;
    a ^= r64(secret, s + 8 * lane);
    acc[lane] = (a * P32_1) & M64;
  }
}

function longAccs(data, secret) {
  const n = data.length;
  const acc = [P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1];
  const stripesPerBlock = (secret.length - STRIPE) / 8;
  const block = STRIPE * stripesPerBlock;
  const blocks = Math.floor((n - 1) / block);
  for (let b = 0; b < blocks; b++) {
    for (let s = 0; s < stripesPerBlock; s++) accumulate(acc, data, b * block + s * STRIPE, secret, 8 * s);
    scramble(acc, secret, secret.length - STRIPE);
  }
  const stripes = Math.floor((n - 1 - block * blocks) / STRIPE);
  for (let s = 0; s < stripes; s++) accumulate(acc, data, blocks * block + s * STRIPE, secret, 8 * s);
  accumulate(acc, data, n - STRIPE, secret, secret.length - STRIPE - LASTACC_START);
  return acc;
}

function mergeAccs(acc, secret, s, start) {
  let result = start;
  for (let i = 0; i < 4; i++) {
    result = (result + fold(acc[2 * i] ^ r64(secret, s + 16 * i), acc[2 * i + 1] ^ r64(secret, s + 16 * i + 8))) & M64;
  }
  return avalanche(result);
}

/**
 * XXH3_64bits_withSeed.
 * @param {Uint8Array} data
 * @param {bigint} seed an unsigned 64-bit seed
 * @returns {bigint}
 */
export function xxh3_64(data, seed = 0n) {
  const n = data.length;
  const N = BigInt(n);
  const sec = K_SECRET;
  if (n === 0) return xxh64Avalanche(seed ^ s64(56) ^ s64(64));
  if (n <= 3) {
    const combined = BigInt(((data[0] << 16) | (data[n >> 1] << 24) | data[n - 1] | (n << 8)) >>> 0);
    const flip = ((r32(sec, 0) ^ r32(sec, 4)) + seed) & M64;
    return xxh64Avalanche(combined ^ flip);
  }
  if (n <= 8) {
    const s = seed ^ (swap32(seed & M32) << 32n);
    const flip = ((s64(8) ^ s64(16)) - s) & M64;
    const x = (r32(data, n - 4) + (r32(data, 0) << 32n)) ^ flip;
    return rrmxmx(x, N);
  }
  if (n <= 16) {
    const flip1 = ((s64(24) ^ s64(32)) + seed) & M64;
    const flip2 = ((s64(40) ^ s64(48)) - seed) & M64;
    const lo = r64(data, 0) ^ flip1;
    const hi = r64(data, n - 8) ^ flip2;
    return avalanche((N + swap64(lo) + hi + fold(lo, hi)) & M64);
  }
  if (n <= 128) {
    let acc = (N * P64_1) & M64;
    if (n > 32) {
      if (n > 64) {
        if (n > 96) acc += mix16(data, 48, sec, 96, seed) + mix16(data, n - 64, sec, 112, seed);
        acc += mix16(data, 32, sec, 64, seed) + mix16(data, n - 48, sec, 80, seed);
      }
      acc += mix16(data, 16, sec, 32, seed) + mix16(data, n - 32, sec, 48, seed);
    }
    acc += mix16(data, 0, sec, 0, seed) + mix16(data, n - 16, sec, 16, seed);
    return avalanche(acc & M64);
  }
  if (n <= 240) {
    let acc = (N * P64_1) & M64;
    for (let i = 0; i < 8; i++) acc += mix16(data, 16 * i, sec, 16 * i, seed);
    acc = avalanche(acc & M64);
    for (let i = 8; i < Math.floor(n / 16); i++) acc += mix16(data, 16 * i, sec, 16 * (i - 8) + MIDSIZE_START, seed);
    acc += mix16(data, n - 16, sec, SECRET_MIN - MIDSIZE_LAST, seed);
    return avalanche(acc & M64);
  }
  const secret = customSecret(seed);
  return mergeAccs(longAccs(data, secret), secret, MERGEACCS_START, (N * P64_1) & M64);
}

function mix32(state, data, i1, i2, secret, s, seed) {
  let lo = (state[0] + mix16(data, i1, secret, s, seed)) & M64;
  lo ^= (r64(data, i2) + r64(data, i2 + 8)) & M64;
  let hi = (state[1] + mix16(data, i2, secret, s + 16, seed)) & M64;
  hi ^= (r64(data, i1) + r64(data, i1 + 8)) & M64;
  state[0] = lo;
  state[1] = hi;
}

function finish128(state, N, seed) {
  const [lo, hi] = state;
  const low = (lo + hi) & M64;
  const high = (lo * P64_1 + hi * P64_4 + ((N - seed) & M64) * P64_2) & M64;
  return [avalanche(low), -avalanche(high) & M64];
}

/**
 * XXH3_128bits_withSeed.
 * @param {Uint8Array} data
 * @param {bigint} seed an unsigned 64-bit seed
 * @returns {[bigint, bigint]} the low and high 64 bits (h1, h2)
 */
export function xxh3_128(data, seed = 0n) {
  const n = data.length;
  const N = BigInt(n);
  const sec = K_SECRET;
  if (n === 0) return [xxh64Avalanche(seed ^ s64(64) ^ s64(72)), xxh64Avalanche(seed ^ s64(80) ^ s64(88))];
  if (n <= 3) {
    const lo = BigInt(((data[0] << 16) | (data[n >> 1] << 24) | data[n - 1] | (n << 8)) >>> 0);
    const hi = rotl32(swap32(lo), 13n);
    const flipLo = ((r32(sec, 0) ^ r32(sec, 4)) + seed) & M64;
    const flipHi = ((r32(sec, 8) ^ r32(sec, 12)) - seed) & M64;
    return [xxh64Avalanche(lo ^ flipLo), xxh64Avalanche(hi ^ flipHi)];
  }
  if (n <= 8) {
    const s = seed ^ (swap32(seed & M32) << 32n);
    let x = r32(data, 0) + (r32(data, n - 4) << 32n);
    x ^= ((s64(16) ^ s64(24)) + s) & M64;
    const p = x * ((P64_1 + (N << 2n)) & M64);
    let lo = p & M64;
    let hi = p >> 64n;
    hi = (hi + (lo << 1n)) & M64;
    lo ^= hi >> 3n;
    lo ^= lo >> 35n;
    lo = (lo * PMX_2) & M64;
    lo ^= lo >> 28n;
    return [lo, avalanche(hi)];
  }
  if (n <= 16) {
    const flipLo = ((s64(32) ^ s64(40)) - seed) & M64;
    const flipHi = ((s64(48) ^ s64(56)) + seed) & M64;
    const inLo = r64(data, 0);
    let inHi = r64(data, n - 8);
    let p = (inLo ^ inHi ^ flipLo) * P64_1;
    let lo = p & M64;
    let hi = p >> 64n;
    lo = (lo + ((N - 1n) << 54n)) & M64;
    inHi ^= flipHi;
    hi = (hi + inHi + (inHi & M32) * (P32_2 - 1n)) & M64;
    lo ^= swap64(hi);
    p = lo * P64_2;
    const hLo = p & M64;
    const hHi = ((p >> 64n) + hi * P64_2) & M64;
    return [avalanche(hLo), avalanche(hHi)];
  }
  const state = [(N * P64_1) & M64, 0n];
  if (n <= 128) {
    if (n > 32) {
      if (n > 64) {
        if (n > 96) mix32(state, data, 48, n - 64, sec, 96, seed);
        mix32(state, data, 32, n - 48, sec, 64, seed);
      }
      mix32(state, data, 16, n - 32, sec, 32, seed);
    }
    mix32(state, data, 0, n - 16, sec, 0, seed);
    return finish128(state, N, seed);
  }
  if (n <= 240) {
    for (let i = 0; i < 4; i++) mix32(state, data, 32 * i, 32 * i + 16, sec, 32 * i, seed);
    state[0] = avalanche(state[0]);
    state[1] = avalanche(state[1]);
    for (let i = 4; i < Math.floor(n / 32); i++) {
      mix32(state, data, 32 * i, 32 * i + 16, sec, MIDSIZE_START + 32 * (i - 4), seed);
    }
    mix32(state, data, n - 16, n - 32, sec, SECRET_MIN - MIDSIZE_LAST - 16, -seed & M64);
    return finish128(state, N, seed);
  }
  const secret = customSecret(seed);
  const acc = longAccs(data, secret);
  return [
    mergeAccs(acc, secret, MERGEACCS_START, (N * P64_1) & M64),
    mergeAccs(acc, secret, secret.length - 64 - MERGEACCS_START, ~(N * P64_2) & M64),
  ];
}
