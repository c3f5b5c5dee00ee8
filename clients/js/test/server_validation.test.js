// The validator against the server's: mutated bytes of valid filters,
// sketches and summaries are accepted by the library exactly when the
// bytea cast accepts them, and refused with the same SQLSTATE.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { BloomFilter, CountMinSketch, TopKSketch } from 'bloomsketch';
import { SKIP, copyIn, dropDatabase, freshDatabase, hex, sql, unhex } from './pg.mjs';
import { rng } from './gen.mjs';
import { REPO_TEST, VECTORS, readTsv } from './vector_values.mjs';

const DB = 'bs_client_js_validation';
const PER_VALUE = 150;

before(() => {
  if (SKIP) return;
  freshDatabase(DB);
  sql(DB, `CREATE FUNCTION try_cast(kind text, b bytea) RETURNS text LANGUAGE plpgsql AS $$
    BEGIN
      IF kind = 'bloomfilter' THEN PERFORM b::bloomfilter;
      ELSIF kind = 'cmsketch' THEN PERFORM b::cmsketch;
      ELSE PERFORM b::topksketch; END IF;
      RETURN 'ok';
    EXCEPTION WHEN others THEN RETURN SQLSTATE;
    END $$;
    CREATE FUNCTION try_input(kind text, t text) RETURNS text LANGUAGE plpgsql AS $$
    BEGIN
      IF kind = 'bloomfilter' THEN PERFORM t::bloomfilter;
      ELSIF kind = 'cmsketch' THEN PERFORM t::cmsketch;
      ELSE PERFORM t::topksketch; END IF;
      RETURN 'ok';
    EXCEPTION WHEN others THEN RETURN SQLSTATE;
    END $$;`);
});
after(() => { if (!SKIP) dropDatabase(DB); });

/** Mutations of valid bytes: a changed byte (mostly in the header), a flipped bit, a cut or an extra byte. */
function mutations(bytes, r, header) {
  const out = [];
  for (let i = 0; i < PER_VALUE; i++) {
    const b = bytes.slice();
    const kind = r();
    if (kind < 0.5) b[Math.floor(r() * Math.min(header, b.length))] = Math.floor(r() * 256);
    else if (kind < 0.8) {
      const at = Math.floor(r() * b.length);
      b[at] ^= 1 << Math.floor(r() * 8);
    } else if (kind < 0.9) {
      out.push(b.slice(0, Math.floor(r() * b.length)));
      continue;
    } else {
      const longer = new Uint8Array(b.length + 1);
      longer.set(b);
      out.push(longer);
      continue;
    }
    out.push(b);
  }
  return out;
}

function outcome(read, bytes) {
  try {
    read(bytes);
    return 'ok';
  } catch (e) {
    if (!e.code) throw e;
    return e.code;
  }
}

test('mutated values: accepted and refused as the bytea casts do, with their SQLSTATE', { skip: SKIP }, () => {
  const r = rng(2026);
  const cases = [];
  const add = (kind, read, bytes, header) => {
    for (const m of [bytes, ...mutations(bytes, r, header)]) cases.push([kind, read, m]);
  };
  for (const row of readTsv(path.join(VECTORS, 'bloom_filters.tsv'))) add('bloomfilter', BloomFilter.fromBytes, unhex(row.bytes), 36);
  for (const row of readTsv(path.join(VECTORS, 'cms_sketches.tsv'))) add('cmsketch', CountMinSketch.fromBytes, unhex(row.bytes), 32);
  for (const [, text] of readTsv(path.join(REPO_TEST, 'topksketch_v1.tsv'), { header: false })) {
    add('topksketch', TopKSketch.fromBytes, TopKSketch.fromText(text).toBytes(), 60);
  }
  const answers = sql(DB, `CREATE TEMP TABLE c (id int, kind text, bytes text);\n` +
    copyIn('c', cases.map(([kind, , b], i) => [String(i), kind, hex(b)])) +
    `SELECT try_cast(kind, decode(bytes, 'hex')) FROM c ORDER BY id;`);
  assert.equal(answers.length, cases.length);
  let refused = 0;
  const differ = [];
  cases.forEach(([kind, read, b], i) => {
    const mine = outcome(read, b);
    if (mine !== 'ok') refused++;
    if (mine !== answers[i][0]) differ.push(`${kind} ${hex(b).slice(0, 80)}: server ${answers[i][0]}, library ${mine}`);
  });
  assert.deepEqual(differ, []);
  assert.ok(refused > cases.length / 3, `only ${refused} of ${cases.length} refused`);
});

/** Mutations of a valid text form: a character changed, removed or added. */
function textMutations(text, r) {
  const alphabet = '0123456789-+=:/abkmxyzAQ_ ';
  const out = [];
  for (let i = 0; i < PER_VALUE; i++) {
    const at = Math.floor(r() * text.length);
    const c = alphabet[Math.floor(r() * alphabet.length)];
    const kind = r();
    if (kind < 0.5) out.push(text.slice(0, at) + c + text.slice(at + 1));
    else if (kind < 0.75) out.push(text.slice(0, at) + text.slice(at + 1));
    else out.push(text.slice(0, at) + c + text.slice(at));
  }
  return out;
}

test('mutated text forms: accepted and refused as the type input does, with its SQLSTATE', { skip: SKIP }, () => {
  const r = rng(41);
  const cases = [];
  const add = (kind, read, text) => {
    for (const t of [text, ...textMutations(text, r)]) cases.push([kind, read, t]);
  };
  for (const row of readTsv(path.join(VECTORS, 'bloom_filters.tsv'))) add('bloomfilter', BloomFilter.fromText, row.text);
  for (const row of readTsv(path.join(VECTORS, 'cms_sketches.tsv'))) add('cmsketch', CountMinSketch.fromText, row.text);
  for (const [, text] of readTsv(path.join(REPO_TEST, 'topksketch_v1.tsv'), { header: false })) add('topksketch', TopKSketch.fromText, text);
  const answers = sql(DB, `CREATE TEMP TABLE t (id int, kind text, body text);\n` +
    copyIn('t', cases.map(([kind, , t], i) => [String(i), kind, t])) +
    `SELECT try_input(kind, body) FROM t ORDER BY id;`);
  assert.equal(answers.length, cases.length);
  const differ = [];
  cases.forEach(([kind, read, t], i) => {
    const mine = outcome(read, t);
    if (mine !== answers[i][0]) differ.push(`${kind} ${t.slice(0, 100)}: server ${answers[i][0]}, library ${mine}`);
  });
  assert.deepEqual(differ, []);
});
