// Count-min sketches and heavy-hitter summaries against the server, for
// every supported family: sketches built here are byte-identical to (and
// `=`) those of cms_agg, cms_create and cms_create_dims, merges agree,
// 10^5 estimates agree, cms_info matches; summaries of topk_agg list the
// same values, counts and bounds as topk_items, topk_estimate and
// topk_bounds agree for 10^5 values, and topk_info matches.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CountMinSketch, TopKSketch } from 'bloomsketch';
import { SKIP, copyIn, dropDatabase, freshDatabase, hex, sql, unhex } from './pg.mjs';
import { FAMILY_NAMES, FAMILY_VALUES, makeValues, rng } from './gen.mjs';

const DB = 'bs_client_js_sketches';
const PROBES = 100000;
const DISTINCT = 600;
const SEED = 4611686018427387913n;

before(() => { if (!SKIP) freshDatabase(DB); });
after(() => { if (!SKIP) dropDatabase(DB); });

/** Within 1e-9 relative (both may be 0). */
function close(a, b, what) {
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)), `${what}: ${a} and ${b}`);
}

test('cms_create sizes every (epsilon, delta) as CountMinSketch.create', { skip: SKIP }, () => {
  const pairs = [];
  for (const e of [0.5, 0.2, 0.1, 0.05, 0.01, 0.003, 0.001, 0.0001]) {
    for (const d of [0.9, 0.5, 0.1, 0.01, 0.001, 1e-6, 1e-12]) pairs.push([e, d]);
  }
  pairs.push([0.01, 0.0001], [0.1, 0.01], [0.001, 1e-9]);
  const rows = sql(DB, pairs.map(([e, d]) =>
    `SELECT i.width, i.depth, i.copies, i.epsilon, i.delta, i.bytes FROM cms_info(cms_create(${e}, ${d}, 0)) i;`).join('\n'));
  pairs.forEach(([e, d], n) => {
    const info = CountMinSketch.create({ family: 'integer', epsilon: e, delta: d }).info();
    assert.deepEqual(rows[n].slice(0, 3).map(Number), [info.width, info.depth, info.copies], `cms_create(${e}, ${d})`);
    close(Number(rows[n][3]), info.epsilon, `epsilon of (${e}, ${d})`);
    close(Number(rows[n][4]), info.delta, `delta of (${e}, ${d})`);
    assert.equal(Number(rows[n][5]), info.bytes);
  });
});

/** A skewed stream: DISTINCT values with counts, and PROBES probe values (the stream's first). */
function stream(family) {
  const values = makeValues(family, PROBES, 7 + family.length);
  const r = rng(99);
  const counts = values.slice(0, DISTINCT).map((_, i) => 1 + Math.floor(2000 / (i + 1) * r()));
  return { values, counts };
}

/** The typed table of a family's values: id, cnt (0 for probe-only values), v. */
function load(prefix, family, { values, counts }) {
  const t = `${prefix}_${family}`;
  sql(DB, `CREATE TABLE ${t}_src (id int, kind text, src text, cnt int);\n` +
    copyIn(`${t}_src`, values.map(([, kind, src], i) => [String(i), kind, src, String(counts[i] ?? 0)])) +
    `CREATE TABLE ${t} AS SELECT id, cnt, ${FAMILY_VALUES[family].expr} AS v FROM ${t}_src;\n`);
  return t;
}

for (const family of FAMILY_NAMES) {
  test(`cmsketch ${family}: built, merged, described and estimated as in SQL`, { skip: SKIP }, () => {
    const data = stream(family);
    const t = load('c', family, data);
    const js = data.values.map(([v]) => v);
    const named = [
      ['agg', `cms_agg(v, cnt::int8, 0.01, 0.001) FILTER (WHERE cnt > 0)`],
      ['half1', `cms_agg(v, cnt::int8, 0.01, 0.001) FILTER (WHERE cnt > 0 AND id % 2 = 0)`],
      ['half2', `cms_agg(v, cnt::int8, 0.01, 0.001) FILTER (WHERE cnt > 0 AND id % 2 = 1)`],
      ['seeded', `cms_add_each(cms_create(0.005, 0.00001, ${SEED}), array_agg(v ORDER BY id) FILTER (WHERE cnt > 0))`],
      ['dims', `cms_add_each(cms_create_dims(1000, 4, -5), array_agg(v ORDER BY id) FILTER (WHERE cnt > 0))`],
    ];
    sql(DB, `CREATE TABLE ${t}_c AS ${named.map(([n, agg]) => `SELECT '${n}' AS name, ${agg} AS s FROM (SELECT * FROM ${t} ORDER BY id) o`).join(' UNION ALL ')};`);
    const fromSql = new Map(sql(DB, `SELECT name, encode(s::bytea, 'hex') FROM ${t}_c;`).map(([n, b]) => [n, unhex(b)]));

    const build = (sketch, half, counted) => {
      js.slice(0, DISTINCT).forEach((v, i) => {
        if (half === undefined || i % 2 === half) sketch.add(v, counted ? data.counts[i] : 1);
      });
      return sketch;
    };
    const mine = new Map([
      ['agg', build(CountMinSketch.create({ family, epsilon: 0.01, delta: 0.001 }), undefined, true)],
      ['half1', build(CountMinSketch.create({ family, epsilon: 0.01, delta: 0.001 }), 0, true)],
      ['half2', build(CountMinSketch.create({ family, epsilon: 0.01, delta: 0.001 }), 1, true)],
      ['seeded', build(CountMinSketch.create({ family, epsilon: 0.005, delta: 0.00001, seed: SEED }), undefined, false)],
      ['dims', build(CountMinSketch.createDims({ family, width: 1000, depth: 4, seed: -5 }), undefined, false)],
    ]);
    for (const [name, s] of mine) assert.equal(hex(s.toBytes()), hex(fromSql.get(name)), `${name}: JS build differs`);
    const merged = mine.get('half1').merge(mine.get('half2'));
    assert.equal(merged.toText(), mine.get('agg').toText(), 'merge of the halves');

    const rows = [...mine].map(([n, s]) => [n, hex(s.toBytes())]).concat([['merged', hex(merged.toBytes())]]);
    const equal = sql(DB, `CREATE TEMP TABLE mine (name text, bytes text);\n${copyIn('mine', rows)}` +
      `SELECT m.name, decode(m.bytes, 'hex')::cmsketch = coalesce(c.s,
          (SELECT a.s + b.s FROM ${t}_c a, ${t}_c b WHERE a.name = 'half1' AND b.name = 'half2'))
         FROM mine m LEFT JOIN ${t}_c c USING (name) ORDER BY m.name;`);
    assert.equal(equal.length, rows.length);
    for (const [name, eq] of equal) assert.equal(eq, 't', `${name}: server says the JS-built sketch differs`);

    const infos = sql(DB, `SELECT name, i.width, i.depth, i.copies, i.epsilon, i.delta, i.seed, i.family, i.total, i.bytes,
        i.format_version FROM ${t}_c, cms_info(s) i ORDER BY name;`);
    for (const [name, w, d, copies, epsilon, delta, ...rest] of infos) {
      const i = CountMinSketch.fromBytes(fromSql.get(name)).info();
      assert.deepEqual([w, d, copies, ...rest], [i.width, i.depth, i.copies, i.seed, i.family, i.total, i.bytes, i.formatVersion].map(String), name);
      close(Number(epsilon), i.epsilon, `${name} epsilon`);
      close(Number(delta), i.delta, `${name} delta`);
    }

    for (const name of ['agg', 'seeded']) {
      const [[estimates]] = sql(DB, `SELECT array_to_string(cms_estimate_each(s, (SELECT array_agg(v ORDER BY id) FROM ${t})), ',')
          FROM ${t}_c WHERE name = '${name}';`);
      const sketch = CountMinSketch.fromBytes(fromSql.get(name));
      const expected = estimates.split(',');
      assert.equal(expected.length, PROBES);
      let disagree = 0;
      for (let i = 0; i < PROBES; i++) if (String(sketch.estimate(js[i])) !== expected[i]) disagree++;
      assert.equal(disagree, 0, `${name}: ${disagree} of ${PROBES} estimates disagree with SQL`);
    }
  });
}

/** Whether topk_items' text (TimeZone UTC, DateStyle ISO) spells the item's value. */
function spells(family, text, item) {
  const v = item.value;
  switch (family) {
    case 'integer': return BigInt(text) === v;
    case 'bytea': return text === '\\x' + hex(v);
    case 'float': return Object.is(Number(text), v) || (Number.isNaN(v) && text === 'NaN');
    case 'bool': return text === (v ? 't' : 'f');
    case 'date': case 'timestamp': case 'timestamptz': {
      if (v === Infinity || v === -Infinity) return text === (v > 0 ? 'infinity' : '-infinity');
      const year = v.getUTCFullYear();
      const iso = v.toISOString().replace(/^[+-]?\d+/, '');
      const bc = year <= 0;
      const day = String(bc ? 1 - year : year).padStart(4, '0') + iso.slice(0, 6);
      let out = day;
      if (family !== 'date') {
        const micros = ((item.micros % 1000000n) + 1000000n) % 1000000n;
        out += ' ' + iso.slice(7, 15) + (micros ? '.' + String(micros).padStart(6, '0').replace(/0+$/, '') : '');
        if (family === 'timestamptz') out += '+00';
      }
      return text === out + (bc ? ' BC' : '');
    }
    default: return text === v;
  }
}

for (const family of FAMILY_NAMES) {
  test(`topksketch ${family}: items and info as topk_items and topk_info`, { skip: SKIP }, () => {
    const data = stream(family);
    const t = load('k', family, data);
    const rows = sql(DB, `CREATE TABLE ${t}_k AS SELECT topk_agg(v, 12) AS s FROM (SELECT v FROM ${t}, generate_series(1, cnt) ORDER BY id) o;
      SELECT encode(s::bytea, 'hex') FROM ${t}_k;
      SET TimeZone = 'UTC';
      SELECT encode(convert_to(i.value, 'UTF8'), 'hex'), i.count, i.lower_bound, i.upper_bound FROM ${t}_k, topk_items(s) i;`);
    const summary = TopKSketch.fromBytes(unhex(rows[0][0]));
    const items = summary.items();
    const listed = rows.slice(1);
    assert.ok(items.length >= (family === 'bool' ? 2 : 10), `${items.length} items`);
    assert.equal(items.length, listed.length);
    items.forEach((item, i) => {
      const [textHex, count, lower, upper] = listed[i];
      const text = new TextDecoder().decode(unhex(textHex));
      assert.deepEqual([count, lower, upper], [item.count, item.lowerBound, item.upperBound].map(String), `${family} item ${i}`);
      assert.ok(spells(family, text, item), `${family} item ${i}: SQL lists ${text}, the library ${String(item.value)}`);
    });
    const [info] = sql(DB, `SELECT i.counters, i.entries, i.total, i.max_error, i.error_bound, i.family, i.bytes, i.format_version
        FROM ${t}_k, topk_info(s) i;`);
    const mine = summary.info();
    assert.deepEqual([info[0], info[1], info[2], info[3], info[5], info[6], info[7]],
      [mine.counters, mine.entries, mine.total, mine.maxError, mine.family, mine.bytes, mine.formatVersion].map(String));
    close(Number(info[4]), mine.errorBound, 'error_bound');
    assert.equal(TopKSketch.fromText(summary.toText()).toText(), summary.toText());

    // topk_estimate and topk_bounds of every probe value
    const js = data.values.map(([v]) => v);
    const [[estimates, lowers, uppers]] = sql(DB, `SELECT array_to_string(topk_estimate_each(s, a), ','),
        (SELECT string_agg(b.lower_bound::text, ',' ORDER BY n) FROM topk_bounds_each(s, a) WITH ORDINALITY b(v, lower_bound, upper_bound, n)),
        (SELECT string_agg(b.upper_bound::text, ',' ORDER BY n) FROM topk_bounds_each(s, a) WITH ORDINALITY b(v, lower_bound, upper_bound, n))
        FROM ${t}_k, (SELECT array_agg(v ORDER BY id) a FROM ${t}) x;`);
    const [e, lo, up] = [estimates, lowers, uppers].map((x) => x.split(','));
    assert.equal(e.length, PROBES);
    let disagree = 0;
    let listedProbes = 0;
    for (let i = 0; i < PROBES; i++) {
      const b = summary.bounds(js[i]);
      const est = summary.estimate(js[i]);
      if (est > 0n) listedProbes++;
      if (String(est) !== e[i] || String(b.lowerBound) !== lo[i] || String(b.upperBound) !== up[i]) disagree++;
    }
    assert.equal(disagree, 0, `${disagree} of ${PROBES} estimates or bounds disagree with SQL`);
    assert.ok(listedProbes > 0);
  });
}
