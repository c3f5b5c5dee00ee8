// XXH3 in JavaScript against libxxhash's digests (test/xxh3_libxxhash.tsv,
// written by make_xxh3_vectors.py with Debian's python3-xxhash).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { xxh3_64, xxh3_128 } from 'bloomsketch';
import { readTsv } from './vector_values.mjs';

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'xxh3_libxxhash.tsv');

test('XXH3 64 and 128 agree with libxxhash for every length class and seed', () => {
  const rows = readTsv(file);
  assert.ok(rows.length > 1000);
  for (const row of rows) {
    const n = Number(row.length);
    const data = Uint8Array.from({ length: n }, (_, i) => (131 * i + 7 * n + 13) % 256);
    const seed = BigInt(row.seed);
    assert.equal(xxh3_64(data, seed), BigInt(row.xxh3_64), `64 n=${n} seed=${seed}`);
    assert.deepEqual(xxh3_128(data, seed), [BigInt(row.xxh3_128_low), BigInt(row.xxh3_128_high)], `128 n=${n} seed=${seed}`);
  }
});
