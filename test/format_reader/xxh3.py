"""XXH3 (64- and 128-bit, seeded) in pure Python, written from the xxHash
specification of XXH3 as released in xxHash 0.8.0 (the output is frozen
since that release).  Slow, but exact: enough to read and write test vectors.

    xxh3_64(data, seed=0)   -> int
    xxh3_128(data, seed=0)  -> (low64, high64)
"""

M64 = (1 << 64) - 1
M32 = (1 << 32) - 1

P32_1 = 0x9E3779B1
P32_2 = 0x85EBCA77
P32_3 = 0xC2B2AE3D
P64_1 = 0x9E3779B185EBCA87
P64_2 = 0xC2B2AE3D27D4EB4F
P64_3 = 0x165667B19E3779F9
P64_4 = 0x85EBCA77C2B2AE63
P64_5 = 0x27D4EB2F165667C5
PMX_1 = 0x165667919E3779F9
PMX_2 = 0x9FB21C651E98DF25

# The 192-byte default secret.
K_SECRET = bytes.fromhex(
    "b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671f"
    "cb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c"
    "3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8"
    "a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364"
    "eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e"
    "2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e")

STRIPE = 64
SECRET_MIN = 136
MIDSIZE_START = 3
MIDSIZE_LAST = 17
LASTACC_START = 7
MERGEACCS_START = 11


def _r64(b, i):
    return int.from_bytes(b[i:i + 8], "little")


def _r32(b, i):
    return int.from_bytes(b[i:i + 4], "little")


def _swap64(x):
    return int.from_bytes(x.to_bytes(8, "little"), "big")


def _swap32(x):
    return int.from_bytes(x.to_bytes(4, "little"), "big")


def _rotl64(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def _rotl32(x, r):
    return ((x << r) | (x >> (32 - r))) & M32


def _fold(a, b):
    p = a * b
    return (p ^ (p >> 64)) & M64


def _xxh64_avalanche(h):
    h ^= h >> 33
    h = (h * P64_2) & M64
    h ^= h >> 29
    h = (h * P64_3) & M64
    return h ^ (h >> 32)


def _avalanche(h):
    h ^= h >> 37
    h = (h * PMX_1) & M64
    return h ^ (h >> 32)


def _rrmxmx(h, length):
    h ^= _rotl64(h, 49) ^ _rotl64(h, 24)
    h = (h * PMX_2) & M64
    h ^= (h >> 35) + length
    h = (h * PMX_2) & M64
    return h ^ (h >> 28)


def _mix16(data, i, secret, s, seed):
    lo = _r64(data, i)
    hi = _r64(data, i + 8)
    return _fold(lo ^ ((_r64(secret, s) + seed) & M64),
                 hi ^ ((_r64(secret, s + 8) - seed) & M64))


# ---- long inputs (> 240 bytes), shared by both widths ----

def _custom_secret(seed):
    if seed == 0:
        return K_SECRET
    out = bytearray()
    for i in range(0, len(K_SECRET), 16):
        out += ((_r64(K_SECRET, i) + seed) & M64).to_bytes(8, "little")
        out += ((_r64(K_SECRET, i + 8) - seed) & M64).to_bytes(8, "little")
    return bytes(out)


def _accumulate(acc, data, i, secret, s):
    for lane in range(8):
        value = _r64(data, i + 8 * lane)
        key = value ^ _r64(secret, s + 8 * lane)
        acc[lane ^ 1] = (acc[lane ^ 1] + value) & M64
        acc[lane] = (acc[lane] + (key & M32) * (key >> 32)) & M64


def _scramble(acc, secret, s):
    for lane in range(8):
        a = acc[lane]
        a ^= a >> 47
        a ^= _r64(secret, s + 8 * lane)
        acc[lane] = (a * P32_1) & M64


def _long_accs(data, secret):
    n = len(data)
    acc = [P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1]
    stripes_per_block = (len(secret) - STRIPE) // 8
    block = STRIPE * stripes_per_block
    blocks = (n - 1) // block
    for b in range(blocks):
        for s in range(stripes_per_block):
            _accumulate(acc, data, b * block + s * STRIPE, secret, 8 * s)
        _scramble(acc, secret, len(secret) - STRIPE)
    stripes = ((n - 1) - block * blocks) // STRIPE
    for s in range(stripes):
        _accumulate(acc, data, blocks * block + s * STRIPE, secret, 8 * s)
    _accumulate(acc, data, n - STRIPE, secret, len(secret) - STRIPE - LASTACC_START)
    return acc


def _merge(acc, secret, s, start):
    result = start
    for i in range(4):
        result = (result + _fold(acc[2 * i] ^ _r64(secret, s + 16 * i),
                                 acc[2 * i + 1] ^ _r64(secret, s + 16 * i + 8))) & M64
    return _avalanche(result)


# ---- 64-bit ----

def xxh3_64(data, seed=0):
    data = bytes(data)
    seed &= M64
    n = len(data)
    sec = K_SECRET
    if n == 0:
        return _xxh64_avalanche(seed ^ _r64(sec, 56) ^ _r64(sec, 64))
    if n <= 3:
        combined = (data[0] << 16) | (data[n >> 1] << 24) | data[n - 1] | (n << 8)
        flip = ((_r32(sec, 0) ^ _r32(sec, 4)) + seed) & M64
        return _xxh64_avalanche(combined ^ flip)
    if n <= 8:
        s = seed ^ (_swap32(seed & M32) << 32)
        flip = ((_r64(sec, 8) ^ _r64(sec, 16)) - s) & M64
        x = (_r32(data, n - 4) + (_r32(data, 0) << 32)) ^ flip
        return _rrmxmx(x, n)
    if n <= 16:
        flip1 = ((_r64(sec, 24) ^ _r64(sec, 32)) + seed) & M64
        flip2 = ((_r64(sec, 40) ^ _r64(sec, 48)) - seed) & M64
        lo = _r64(data, 0) ^ flip1
        hi = _r64(data, n - 8) ^ flip2
        return _avalanche((n + _swap64(lo) + hi + _fold(lo, hi)) & M64)
    if n <= 128:
        acc = (n * P64_1) & M64
        if n > 32:
            if n > 64:
                if n > 96:
                    acc += _mix16(data, 48, sec, 96, seed) + _mix16(data, n - 64, sec, 112, seed)
                acc += _mix16(data, 32, sec, 64, seed) + _mix16(data, n - 48, sec, 80, seed)
            acc += _mix16(data, 16, sec, 32, seed) + _mix16(data, n - 32, sec, 48, seed)
        acc += _mix16(data, 0, sec, 0, seed) + _mix16(data, n - 16, sec, 16, seed)
        return _avalanche(acc & M64)
    if n <= 240:
        acc = (n * P64_1) & M64
        for i in range(8):
            acc += _mix16(data, 16 * i, sec, 16 * i, seed)
        acc = _avalanche(acc & M64)
        for i in range(8, n // 16):
            acc += _mix16(data, 16 * i, sec, 16 * (i - 8) + MIDSIZE_START, seed)
        acc += _mix16(data, n - 16, sec, SECRET_MIN - MIDSIZE_LAST, seed)
        return _avalanche(acc & M64)
    secret = _custom_secret(seed)
    acc = _long_accs(data, secret)
    return _merge(acc, secret, MERGEACCS_START, (n * P64_1) & M64)


# ---- 128-bit ----

def _mix32(lo, hi, data, i1, i2, secret, s, seed):
    lo = (lo + _mix16(data, i1, secret, s, seed)) & M64
    lo ^= (_r64(data, i2) + _r64(data, i2 + 8)) & M64
    hi = (hi + _mix16(data, i2, secret, s + 16, seed)) & M64
    hi ^= (_r64(data, i1) + _r64(data, i1 + 8)) & M64
    return lo, hi


def _finish128(lo, hi, n, seed):
    low = (lo + hi) & M64
    high = (lo * P64_1 + hi * P64_4 + ((n - seed) & M64) * P64_2) & M64
    return _avalanche(low), (-_avalanche(high)) & M64


def xxh3_128(data, seed=0):
    data = bytes(data)
    seed &= M64
    n = len(data)
    sec = K_SECRET
    if n == 0:
        return (_xxh64_avalanche(seed ^ _r64(sec, 64) ^ _r64(sec, 72)),
                _xxh64_avalanche(seed ^ _r64(sec, 80) ^ _r64(sec, 88)))
    if n <= 3:
        lo = (data[0] << 16) | (data[n >> 1] << 24) | data[n - 1] | (n << 8)
        hi = _rotl32(_swap32(lo), 13)
        flip_lo = ((_r32(sec, 0) ^ _r32(sec, 4)) + seed) & M64
        flip_hi = ((_r32(sec, 8) ^ _r32(sec, 12)) - seed) & M64
        return _xxh64_avalanche(lo ^ flip_lo), _xxh64_avalanche(hi ^ flip_hi)
    if n <= 8:
        s = seed ^ (_swap32(seed & M32) << 32)
        x = _r32(data, 0) + (_r32(data, n - 4) << 32)
        x ^= ((_r64(sec, 16) ^ _r64(sec, 24)) + s) & M64
        p = x * ((P64_1 + (n << 2)) & M64)
        lo, hi = p & M64, p >> 64
        hi = (hi + (lo << 1)) & M64
        lo ^= hi >> 3
        lo ^= lo >> 35
        lo = (lo * PMX_2) & M64
        lo ^= lo >> 28
        return lo, _avalanche(hi)
    if n <= 16:
        flip_lo = ((_r64(sec, 32) ^ _r64(sec, 40)) - seed) & M64
        flip_hi = ((_r64(sec, 48) ^ _r64(sec, 56)) + seed) & M64
        in_lo = _r64(data, 0)
        in_hi = _r64(data, n - 8)
        p = (in_lo ^ in_hi ^ flip_lo) * P64_1
        lo, hi = p & M64, p >> 64
        lo = (lo + ((n - 1) << 54)) & M64
        in_hi ^= flip_hi
        hi = (hi + in_hi + (in_hi & M32) * (P32_2 - 1)) & M64
        lo ^= _swap64(hi)
        p = lo * P64_2
        h_lo = p & M64
        h_hi = ((p >> 64) + hi * P64_2) & M64
        return _avalanche(h_lo), _avalanche(h_hi)
    if n <= 128:
        lo, hi = (n * P64_1) & M64, 0
        if n > 32:
            if n > 64:
                if n > 96:
                    lo, hi = _mix32(lo, hi, data, 48, n - 64, sec, 96, seed)
                lo, hi = _mix32(lo, hi, data, 32, n - 48, sec, 64, seed)
            lo, hi = _mix32(lo, hi, data, 16, n - 32, sec, 32, seed)
        lo, hi = _mix32(lo, hi, data, 0, n - 16, sec, 0, seed)
        return _finish128(lo, hi, n, seed)
    if n <= 240:
        lo, hi = (n * P64_1) & M64, 0
        for i in range(4):
            lo, hi = _mix32(lo, hi, data, 32 * i, 32 * i + 16, sec, 32 * i, seed)
        lo, hi = _avalanche(lo), _avalanche(hi)
        for i in range(4, n // 32):
            lo, hi = _mix32(lo, hi, data, 32 * i, 32 * i + 16, sec,
                            MIDSIZE_START + 32 * (i - 4), seed)
        lo, hi = _mix32(lo, hi, data, n - 16, n - 32, sec,
                        SECRET_MIN - MIDSIZE_LAST - 16, (-seed) & M64)
        return _finish128(lo, hi, n, seed)
    secret = _custom_secret(seed)
    acc = _long_accs(data, secret)
    return (_merge(acc, secret, MERGEACCS_START, (n * P64_1) & M64),
            _merge(acc, secret, len(secret) - 64 - MERGEACCS_START, (~(n * P64_2)) & M64))
