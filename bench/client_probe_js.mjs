// Per-probe cost of the JavaScript client (clients/js): contains() of each
// probing scheme and estimate() of a count-min sketch, for bigint and text
// values, next to one XXH3-128 call on the same canonical bytes (the floor
// every probe pays).  No server.  Run: node bench/client_probe_js.mjs
// [PROBES] (default 200,000); prints a markdown table, median of 5 rounds.
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import { BloomFilter, CountMinSketch, canonicalBytes, xxh3_128 } from '../clients/js/index.js';

const PROBES = Number(process.argv[2] ?? 200000);
const MEMBERS = 100000;
const ROUNDS = 5;

function values(kind, n, offset) {
  const out = new Array(n);
  for (let i = 0; i < n; i++) out[i] = kind === 'integer' ? BigInt(offset + i) : `user-${(offset + i).toString(36).padStart(10, '0')}`;
  return out;
}

/** Median nanoseconds per call of fn over the probes. */
function time(probes, fn) {
  const rounds = [];
  for (let i = 0; i < probes.length; i++) fn(probes[i]);  // warm-up: compile before timing
  for (let r = 0; r < ROUNDS; r++) {
    const start = performance.now();
    for (let i = 0; i < probes.length; i++) fn(probes[i]);
    rounds.push(((performance.now() - start) * 1e6) / probes.length);
  }
  return rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
}

// shapes of bloom_create(100000, 0.01, 0, scheme) on the server (bloom_info)
const SHAPES = { double: [959323, 7], independent: [959298, 7], blocked: [992256, 6] };
const rows = [];
for (const family of ['integer', 'text']) {
  const members = values(family, MEMBERS, 0);
  const probes = values(family, PROBES, MEMBERS / 2);
  const codeOf = family === 'integer' ? 1 : 2;
  const hash = time(probes, (v) => xxh3_128(canonicalBytes(codeOf, v), 0n));
  rows.push([family, 'XXH3-128 of the canonical bytes (floor)', hash]);
  for (const [scheme, [bits, hashes]] of Object.entries(SHAPES)) {
    const f = BloomFilter.create({ bits, hashes, scheme, family });
    for (const v of members) f.add(v);
    rows.push([family, `BloomFilter.contains, ${scheme} (m = ${bits}, k = ${hashes})`, time(probes, (v) => f.contains(v))]);
  }
  const fit = BloomFilter.fit(members, { family, fpr: 0.01 });
  rows.push([family, `BloomFilter.contains, fit (m = ${fit.info().bits}, k = ${fit.info().hashes})`, time(probes, (v) => fit.contains(v))]);
  const s = CountMinSketch.create({ family });
  for (const v of members) s.add(v);
  const { width, depth, copies } = s.info();
  rows.push([family, `CountMinSketch.estimate (w = ${width}, d = ${depth}, copies = ${copies})`, time(probes, (v) => s.estimate(v))]);
}

console.log(`Node.js ${process.version}, ${os.cpus()[0].model}, ${PROBES} probes, median of ${ROUNDS} rounds\n`);
console.log('| values | call | ns per probe | × XXH3-128 |');
console.log('|---|---|---:|---:|');
let floor = 0;
for (const [family, call, ns] of rows) {
  if (call.startsWith('XXH3')) floor = ns;
  console.log(`| ${family} | ${call} | ${Math.round(ns)} | ${(ns / floor).toFixed(1)} |`);
}
