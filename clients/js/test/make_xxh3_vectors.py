"""Write test/xxh3_libxxhash.tsv: XXH3 digests from libxxhash (Debian's
python3-xxhash, run with /usr/bin/python3) of inputs of every length class
and several seeds; byte i of an input of length n is (131 i + 7 n + 13) mod
256.  xxh3.test.js recomputes them in JavaScript."""
import sys
import xxhash

SEEDS = [0, 1, 0x9E3779B97F4A7C15, 0xFFFFFFFFFFFFFFFF, 0x8000000000000000]
LENGTHS = list(range(0, 250)) + [255, 256, 257, 300, 512, 1024, 1025, 1500, 2048, 4097]

out = sys.stdout
out.write("length\tseed\txxh3_64\txxh3_128_low\txxh3_128_high\n")
for n in LENGTHS:
    data = bytes((131 * i + 7 * n + 13) % 256 for i in range(n))
    for seed in SEEDS:
        h128 = xxhash.xxh3_128_intdigest(data, seed=seed)
        out.write("%d\t%d\t%d\t%d\t%d\n" % (n, seed, xxhash.xxh3_64_intdigest(data, seed=seed),
                                           h128 & (2 ** 64 - 1), h128 >> 64))
