// The library against docs/vectors and test/data/topksketch_v1.tsv, no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { BloomFilter, CountMinSketch, TopKSketch, UnsupportedError, canonicalBytes, FAMILIES } from 'bloomsketch';
import { REPO_TEST, VECTORS, jsValue, readTsv, valuesById } from './vector_values.mjs';

const byId = valuesById();
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const unhex = (s) => Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));
const scalar = (id) => jsValue(byId.get(id));

test('canonical bytes of every scalar value', () => {
  let checked = 0;
  for (const row of byId.values()) {
    const v = jsValue(row);
    if (!v) continue;
    assert.equal(hex(canonicalBytes(FAMILIES.indexOf(v[0]), v[1])), row.canonical, row.id);
    checked++;
  }
  assert.ok(checked >= 40, `only ${checked} scalar values`);
});

test('bit positions of every scalar value, every scheme', () => {
  let checked = 0;
  for (const row of readTsv(path.join(VECTORS, 'bloom_positions.tsv'))) {
    const v = scalar(row.id);
    if (!v) continue;
    const shape = { bits: Number(row.m), hashes: Number(row.k), scheme: row.scheme, seed: BigInt(row.seed), family: v[0] };
    assert.deepEqual(BloomFilter.positionsOf(v[1], shape), row.positions.split(',').map(Number),
      `${row.id} ${row.scheme} m=${row.m}`);
    checked++;
  }
  assert.ok(checked > 500, `only ${checked} position lines`);
});

test('filters built from the vectors are byte-identical, in both forms', () => {
  for (const row of readTsv(path.join(VECTORS, 'bloom_filters.tsv'))) {
    const parsed = BloomFilter.fromBytes(unhex(row.bytes));
    assert.equal(parsed.toText(), row.text, row.name);
    assert.equal(hex(BloomFilter.fromText(row.text).toBytes()), row.bytes, row.name);
    const values = row.values.split(',').map(scalar);
    if (values.some((v) => v === null)) {
      assert.throws(() => parsed.contains(1), UnsupportedError, row.name);
      continue;
    }
    if (row.scheme === 'fit') continue;  // fit filters come from bloom_fit_agg, below
    const f = BloomFilter.create({ bits: Number(row.m), hashes: Number(row.k), scheme: row.scheme, seed: BigInt(row.seed), family: values[0][0] });
    for (const [, value] of values) f.add(value);
    assert.equal(hex(f.toBytes()), row.bytes, row.name);
    for (const [, value] of values) assert.equal(parsed.contains(value), true, row.name);
  }
});

test('item counts up to the saturated 2^64 - 1', () => {
  for (const row of readTsv(path.join(VECTORS, 'bloom_items.tsv'))) {
    const f = BloomFilter.fromText(row.text);
    assert.equal(f.toText(), row.text);
    assert.equal(f.info().itemsAdded, BigInt(row.items_added), row.name);
  }
});

/** The values of a fit_filters.tsv line. */
function fitValues(spec) {
  const [kind, rest] = [spec.slice(0, spec.indexOf(' ')), spec.slice(spec.indexOf(' ') + 1)];
  if (kind === 'ids') return rest.split(',').map(scalar);
  const [low, high] = rest.replace(/v/g, '').split('..').map(Number);
  const out = [];
  for (let i = low; i <= high; i++) out.push(kind === 'int8' ? ['integer', BigInt(i)] : ['text', 'v' + i]);
  return out;
}

test('bloom_fit_agg filters rebuilt byte for byte', () => {
  const byName = new Map();
  let built = 0;
  for (const row of readTsv(path.join(VECTORS, 'fit_filters.tsv'))) {
    byName.set(row.name, BloomFilter.fromText(row.text));
    const values = fitValues(row.values);
    if (values.some((v) => v === null)) continue;
    const f = BloomFilter.fit(values.map((v) => v[1]), { family: values[0][0], fpr: Number(row.fpr), maxBits: Number(row.max_bits) });
    assert.equal(f.toText(), row.text, row.name);
    if (!row.state.startsWith('md5:')) assert.equal(BloomFilter.fromText(row.state).toText(), row.state);
    built++;
  }
  assert.ok(built >= 12, `only ${built} fit filters built`);
  for (const row of readTsv(path.join(VECTORS, 'fit_combined.tsv'))) {
    const [a, b] = [byName.get(row.left), byName.get(row.right)];
    assert.equal((row.op === '|' ? a.union(b) : a.intersect(b)).toText(), row.text, row.name);
  }
});

test('count-min columns and sketches', () => {
  for (const row of readTsv(path.join(VECTORS, 'cms_columns.tsv'))) {
    const v = scalar(row.id);
    if (!v) continue;
    const s = CountMinSketch.createDims({ family: v[0], width: Number(row.w), depth: Number(row.d), copies: Number(row.copies), seed: BigInt(row.seed) });
    s.add(v[1], 1n);
    const w = Number(row.w);
    const counters = s.toBytes().subarray(32);
    const set = [];
    for (let i = 0; i < counters.length / 8; i++) if (counters[8 * i]) set.push(i % w);
    const expected = row.columns.split(',').map(Number);
    assert.deepEqual(set, expected, `${row.id} w=${row.w}`);
  }
  for (const row of readTsv(path.join(VECTORS, 'cms_sketches.tsv'))) {
    const parsed = CountMinSketch.fromBytes(unhex(row.bytes));
    assert.equal(parsed.toText(), row.text, row.name);
    assert.equal(hex(CountMinSketch.fromText(row.text).toBytes()), row.bytes);
    const adds = row.values.split(',').map((p) => p.split('*'));
    const values = adds.map(([id]) => scalar(id));
    if (values.some((v) => v === null)) continue;
    const s = CountMinSketch.createDims({ family: values[0][0], width: Number(row.w), depth: Number(row.d), copies: Number(row.copies), seed: BigInt(row.seed) });
    adds.forEach(([, n], i) => s.add(values[i][1], BigInt(n)));
    assert.equal(hex(s.toBytes()), row.bytes, row.name);
    adds.forEach(([, n], i) => assert.ok(parsed.estimate(values[i][1]) >= BigInt(n)));
  }
});

/** topk_items' text of a listed value, under DateStyle ISO and TimeZone UTC. */
function render(family, item) {
  if (item.value instanceof Date) {
    const iso = item.value.toISOString();
    if (family === 'date') return iso.slice(0, 10);
    const fraction = (Number(((item.micros % 1000000n) + 1000000n) % 1000000n) / 1e6).toString().slice(1);
    return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction}${family === 'timestamptz' ? '+00' : ''}`;
  }
  return String(item.value);
}

test('summaries of test/data/topksketch_v1.tsv: forms, items and info', () => {
  const rows = readTsv(path.join(REPO_TEST, 'topksketch_v1.tsv'), { header: false });
  assert.ok(rows.length >= 10);
  for (const [name, text, , counters, entries, total, error, family, bytes, listed] of rows) {
    const s = TopKSketch.fromText(text);
    assert.equal(s.toText(), text, name);
    assert.equal(TopKSketch.fromBytes(s.toBytes()).toText(), text);
    const info = s.info();
    assert.deepEqual([info.counters, info.entries, info.total, info.maxError, info.family, info.bytes],
      [Number(counters), Number(entries), BigInt(total), BigInt(error), family, Number(bytes)], name);
    if (listed === '\\N') {
      assert.equal(s.items().length, 0);
      continue;
    }
    const expected = [...listed.matchAll(/(.*?):(\d+):(\d+):(\d+)(?: |$)/g)].map((m) => m.slice(1).join(':'));
    const got = s.items().map((it) => [render(family, it), it.count, it.lowerBound, it.upperBound].join(':'));
    assert.deepEqual(got, expected, name);
  }
});

test('format.md section 9 example summary', () => {
  const text = 'topk:v1:integer:counters=3:entries=3:total=7:error=1:bytes=33:AwEIAQAAAAAAAAACAQgCAAAAAAAAAAEBCAMAAAAAAAAA';
  const items = TopKSketch.fromText(text).items();
  assert.deepEqual(items.map((i) => [i.value, i.count, i.upperBound]), [[1n, 3n, 3n], [2n, 2n, 2n], [3n, 1n, 1n]]);
});

test('a partial state of bloom_fit_agg is read from text only, and used by nothing', () => {
  const [row] = readTsv(path.join(VECTORS, 'fit_filters.tsv'));
  const state = BloomFilter.fromText(row.state);
  assert.equal(state.toText(), row.state);
  for (const use of [() => state.toBytes(), () => state.contains(1n), () => state.add(1n), () => state.info(),
    () => state.union(state)]) {
    assert.throws(use, (e) => e.code === '22023');
  }
});

/** The elements of a simple PostgreSQL array literal ('{a,"",b}'). */
function arrayItems(text) {
  return [...text.slice(1, -1).matchAll(/"((?:[^"\\]|\\.)*)"|([^,]+)/g)].map((m) => (m[1] !== undefined ? m[1] : m[2]));
}

test('stored filters and sketches of every released format version read back', () => {
  for (const file of ['bloomfilter_v1.tsv', 'bloomfilter_v2.tsv']) {
    for (const [what, text] of readTsv(path.join(REPO_TEST, file), { header: false })) {
      assert.equal(BloomFilter.fromText(text).toText(), text, `${file}: ${what}`);
    }
  }
  const PROBE_FAMILY = { bigint: 'integer', text: 'text', numeric: 'numeric', uuid: 'uuid' };
  let probed = 0;
  for (const file of ['cmsketch_v1.tsv', 'cmsketch_v2.tsv']) {
    for (const [what, text, , w, d, copies, epsilon, delta, seed, family, total, bytes, type, probes, estimates] of
      readTsv(path.join(REPO_TEST, file), { header: false })) {
      const s = CountMinSketch.fromText(text);
      assert.equal(s.toText(), text, what);
      if (w === undefined) continue;  // a line without recorded answers
      const i = s.info();
      assert.deepEqual([i.width, i.depth, i.copies, i.seed, i.family, i.total, i.bytes].map(String),
        [w, d, copies, seed, family, total, bytes], what);
      assert.ok(Math.abs(i.epsilon - Number(epsilon)) <= 1e-9 * i.epsilon && Math.abs(i.delta - Number(delta)) <= 1e-9 * i.delta, what);
      if (!type || !PROBE_FAMILY[type]) continue;
      const values = arrayItems(probes).map((p) => (type === 'bigint' ? BigInt(p) : p));
      assert.deepEqual(values.map((v) => String(s.estimate(v))), arrayItems(estimates), what);
      probed++;
    }
  }
  assert.ok(probed >= 6, `only ${probed} stored sketches probed`);
});

test('wrong families, family other and mismatched operands are refused with their SQLSTATE', () => {
  const f = BloomFilter.create({ bits: 53, hashes: 3, seed: 7n, family: 'integer' });
  assert.equal(f.contains(42n), false);  // nothing added: family none answers false
  f.add(42n);
  assert.equal(f.toText(), 'bloom:v2:double:integer:k=3:m=53:seed=7:items=1:BAAAAgAAAQA=');  // format.md section 5
  assert.equal(f.contains(42), true);  // a safe-integer number is the same integer
  assert.throws(() => f.contains('42'), (e) => e.code === '22023');
  assert.throws(() => f.contains(1.5), (e) => e.code === '22023');
  assert.throws(() => f.contains(2 ** 60), (e) => e.code === '22023');
  assert.throws(() => f.add('x', 'text'), (e) => e.code === '22023');
  assert.throws(() => BloomFilter.create({ bits: 53, hashes: 3, family: 'other' }), (e) => e.code === '0A000');
  assert.throws(() => BloomFilter.create({ bits: 54, hashes: 3, family: 'integer' }), (e) => e.code === '22023');
  const other = BloomFilter.create({ bits: 59, hashes: 3, seed: 7n, family: 'integer' });
  assert.throws(() => f.union(other), (e) => e.code === '22000');
  const texts = BloomFilter.create({ bits: 53, hashes: 3, seed: 7n, family: 'text' }).add('a');
  assert.throws(() => f.union(texts), (e) => e.code === '22000');
  const array = readTsv(path.join(VECTORS, 'bloom_filters.tsv')).find((r) => r.name === 'blocked_array');
  assert.throws(() => BloomFilter.fromText(array.text).contains([1, 2]), (e) => e.code === '0A000');
  const s = CountMinSketch.createDims({ family: 'text', width: 10, depth: 2 });
  assert.equal(s.info().width, 11);  // rounded up to a prime
  assert.throws(() => s.merge(CountMinSketch.createDims({ family: 'text', width: 13, depth: 2 })), (e) => e.code === '22000');
  assert.throws(() => s.add('a', -1n), (e) => e.code === '22023');
});

test('JavaScript values hash as their SQL counterparts', () => {
  const bytes = (family, v) => hex(canonicalBytes(FAMILIES.indexOf(family), v));
  // numeric: docs/format.md section 1's examples, and numbers as SQL casts them
  for (const [v, text] of [['1.0', '1'], ['1.00', '1'], ['-0.50', '-0.5'], ['1e3', '1000'], ['0.000', '0'],
    [1.5, '1.5'], [0.1 + 0.2, '0.3'], [123456789012345.5, '123456789012346'], [10n, '10'], [NaN, 'NaN']]) {
    assert.equal(bytes('numeric', v), hex(new TextEncoder().encode(text)), String(v));
  }
  // float: -0 is 0, every NaN one, a float4 is its double
  assert.equal(bytes('float', -0), bytes('float', 0));
  assert.equal(bytes('float', NaN), '000000000000f87f');
  assert.equal(bytes('float', 1n), bytes('float', 1));
  // dates: day 1 is 2000-01-02 (section 1); a time of day is refused
  assert.equal(bytes('date', new Date(Date.UTC(2000, 0, 2))), '0100000000000000');
  assert.throws(() => bytes('date', new Date(Date.UTC(2000, 0, 2, 12))), (e) => e.code === '22023');
  assert.equal(bytes('timestamptz', new Date(Date.UTC(2000, 0, 1, 0, 0, 1))), '40420f0000000000');
  // uuid spellings uuid_in accepts
  const plain = bytes('uuid', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
  for (const s of ['A0EEBC999C0B4EF8BB6D6BB9BD380A11', '{a0eebc99-9c0b4ef8-bb6d6bb9-bd380a11}', 'a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11']) {
    assert.equal(bytes('uuid', s), plain, s);
  }
  assert.throws(() => bytes('uuid', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1'), (e) => e.code === '22023');
  assert.throws(() => bytes('text', 'a\uD800'), (e) => e.code === '22023');
});
