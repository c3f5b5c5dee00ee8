// The library in a browser, with no Node.js API: docs/vectors checked as
// test/vectors.test.js checks them under Node.js (canonical bytes, bit
// positions, filters and count-min sketches read, written and built byte for
// byte, summaries read).  The result goes to the page's title, "PASS n" or
// "FAIL reason", for test/harness/client_js_browser.sh to read.
import { BloomFilter, CountMinSketch, TopKSketch, canonicalBytes, FAMILIES } from '../../index.js';
import { jsValue, parseTsv } from '../vector_parse.mjs';

const VECTORS = new URL('../../../../docs/vectors/', import.meta.url);
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const unhex = (s) => Uint8Array.from(s.match(/../g) ?? [], (h) => parseInt(h, 16));

let checks = 0;
function check(ok, what) {
  if (!ok) throw new Error(what);
  checks++;
}

async function vectors(name) {
  const response = await fetch(new URL(name, VECTORS));
  if (!response.ok) throw new Error(`cannot fetch ${name}: ${response.status}`);
  return parseTsv(await response.text());
}

async function run() {
  const byId = new Map((await vectors('values.tsv')).map((r) => [r.id, r]));
  const scalar = (id) => jsValue(byId.get(id));
  for (const row of byId.values()) {
    const v = jsValue(row);
    if (v) check(hex(canonicalBytes(FAMILIES.indexOf(v[0]), v[1])) === row.canonical, `canonical bytes of ${row.id}`);
  }
  for (const row of await vectors('bloom_positions.tsv')) {
    const v = scalar(row.id);
    if (!v) continue;
    const shape = { bits: Number(row.m), hashes: Number(row.k), scheme: row.scheme, seed: BigInt(row.seed), family: v[0] };
    check(BloomFilter.positionsOf(v[1], shape).join(',') === row.positions, `positions of ${row.id}, ${row.scheme}`);
  }
  for (const row of await vectors('bloom_filters.tsv')) {
    const parsed = BloomFilter.fromBytes(unhex(row.bytes));
    check(parsed.toText() === row.text && hex(BloomFilter.fromText(row.text).toBytes()) === row.bytes, `forms of ${row.name}`);
    const values = row.values.split(',').map(scalar);
    if (row.scheme === 'fit' || values.some((v) => v === null)) continue;
    const built = BloomFilter.create({ bits: Number(row.m), hashes: Number(row.k), scheme: row.scheme, seed: BigInt(row.seed), family: values[0][0] });
    for (const [, value] of values) built.add(value);
    check(hex(built.toBytes()) === row.bytes, `filter ${row.name} built`);
    check(values.every(([, value]) => parsed.contains(value)), `members of ${row.name}`);
  }
  for (const row of await vectors('cms_sketches.tsv')) {
    check(CountMinSketch.fromBytes(unhex(row.bytes)).toText() === row.text, `forms of ${row.name}`);
    const adds = row.values.split(',').map((p) => p.split('*'));
    const values = adds.map(([id]) => scalar(id));
    if (values.some((v) => v === null)) continue;
    const built = CountMinSketch.createDims({ family: values[0][0], width: Number(row.w), depth: Number(row.d), copies: Number(row.copies), seed: BigInt(row.seed) });
    adds.forEach(([, n], i) => built.add(values[i][1], BigInt(n)));
    check(hex(built.toBytes()) === row.bytes, `sketch ${row.name} built`);
  }
  for (const row of await vectors('topk_summaries.tsv')) {
    check(TopKSketch.fromText(row.text).toText() === row.text, `summary ${row.name} read`);
  }
  return checks;
}

run().then((n) => { document.title = `PASS ${n}`; }, (e) => { document.title = `FAIL ${e.message}`; });
