// Filters against the server: for every supported family and every scheme,
// 10^5 probes agree between SQL and the library, filters built here are
// byte-identical to (and `=`) those built in SQL, unions and intersections
// agree, and bloom_info's stored fields match.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { BloomFilter } from 'bloomsketch';
import { SKIP, copyIn, dropDatabase, freshDatabase, hex, sql, unhex } from './pg.mjs';
import { FAMILY_NAMES, FAMILY_VALUES, makeValues } from './gen.mjs';

const DB = 'bs_client_js_bloom';
const PROBES = 100000;
const MEMBERS = 2000;
const SCHEMES = ['double', 'double_square', 'double_cube', 'partition', 'independent', 'blocked'];
const SEED = -7046029254386353131n;

before(() => { if (!SKIP) freshDatabase(DB); });
after(() => { if (!SKIP) dropDatabase(DB); });

/** Within 1e-9 relative (both may be 0, or both Infinity). */
function close(a, b, what) {
  assert.ok(a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)), `${what}: ${a} and ${b}`);
}

/** Load a family's probe values: the first MEMBERS are the members. */
function load(family, values) {
  const t = `v_${family}`;
  sql(DB, `CREATE TABLE ${t}_src (id int, kind text, src text);\n` +
    copyIn(`${t}_src`, values.map(([, kind, src], i) => [String(i), kind, src])) +
    `CREATE TABLE ${t} AS SELECT id, id < ${MEMBERS} AS member, ${FAMILY_VALUES[family].expr} AS v FROM ${t}_src;\n`);
  return t;
}

/** The filters SQL builds over the members, by name, as bytes. */
function sqlFilters(t) {
  const named = [];
  for (const s of SCHEMES) {
    named.push([`${s}`, `bloom_agg(v, ${MEMBERS}, 0.01, '${s}')`]);
    named.push([`${s}_seeded`, `bloom_add_each(bloom_create(${MEMBERS}, 0.001, ${SEED}, '${s}'), array_agg(v ORDER BY id))`]);
    named.push([`${s}_half1`, `bloom_agg(v, ${MEMBERS}, 0.01, '${s}') FILTER (WHERE id % 2 = 0)`]);
    named.push([`${s}_half2`, `bloom_agg(v, ${MEMBERS}, 0.01, '${s}') FILTER (WHERE id % 2 = 1)`]);
  }
  named.push(['fit', 'bloom_fit_agg(v, 0.01)']);
  named.push(['fit_bits_state', 'bloom_fit_agg(v, 0.01, 65536)']);
  named.push(['fit_small', 'bloom_fit_agg(v, 0.01) FILTER (WHERE id < 50)']);
  named.push(['fit_over_ceiling', 'bloom_fit_agg(v, 0.001, 1024) FILTER (WHERE id < 1000)']);
  const select = named.map(([name, agg]) => `SELECT '${name}', encode((${agg})::bytea, 'hex') FROM ${t} WHERE member`);
  sql(DB, `CREATE TABLE ${t}_f AS ${select.join('\nUNION ALL ')};\n` +
    `ALTER TABLE ${t}_f RENAME COLUMN "?column?" TO name;\nALTER TABLE ${t}_f RENAME COLUMN encode TO bytes;\n`);
  return new Map(sql(DB, `SELECT name, bytes FROM ${t}_f;`).map(([n, b]) => [n, unhex(b)]));
}

/** JS builds the same filter as SQL from its shape and the members. */
function buildLike(filter, family, members) {
  const { bits, hashes, scheme, seed } = filter.info();
  const f = BloomFilter.create({ bits, hashes, scheme, seed, family });
  for (const v of members) f.add(v);
  return f;
}

for (const family of FAMILY_NAMES) {
  test(`bloomfilter ${family}: every scheme built, combined, described and probed as in SQL`, { skip: SKIP }, () => {
    const values = makeValues(family, PROBES, 41 + family.length);
    const t = load(family, values);
    const js = values.map(([v]) => v);
    const members = js.slice(0, MEMBERS);
    const fromSql = sqlFilters(t);
    const built = new Map();

    for (const s of SCHEMES) {
      for (const suffix of ['', '_seeded']) {
        const name = s + suffix;
        const f = BloomFilter.fromBytes(fromSql.get(name));
        const mine = buildLike(f, family, members);
        assert.equal(hex(mine.toBytes()), hex(fromSql.get(name)), `${name}: JS build differs`);
        built.set(name, mine);
      }
      const halves = [0, 1].map((h) => buildLike(BloomFilter.fromBytes(fromSql.get(`${s}_half${h + 1}`)), family,
        members.filter((_, i) => i % 2 === h)));
      assert.equal(halves[0].union(halves[1]).toText(), BloomFilter.fromBytes(fromSql.get(s)).toText(), `${s}: union`);
      built.set(`${s}_and`, halves[0].intersect(halves[1]));
    }
    for (const [name, fpr, maxBits, count] of [['fit', 0.01, 2 ** 27, MEMBERS], ['fit_bits_state', 0.01, 65536, MEMBERS],
      ['fit_small', 0.01, 2 ** 27, 50], ['fit_over_ceiling', 0.001, 1024, 1000]]) {
      const mine = BloomFilter.fit(members.slice(0, count), { family, fpr, maxBits });
      assert.equal(mine.toText(), BloomFilter.fromBytes(fromSql.get(name)).toText(), `${name}: JS build differs`);
      built.set(name, mine);
    }
    built.set('fit_mixed', built.get('fit').union(built.get('fit_small')));

    // the server accepts every JS-built value and finds it equal to its own
    const rows = [...built].map(([name, f]) => [name, hex(f.toBytes())]);
    const checks = sql(DB, `CREATE TEMP TABLE mine (name text, bytes text);\n${copyIn('mine', rows)}` +
      `SELECT m.name, CASE m.name
         WHEN 'fit_mixed' THEN (SELECT decode(bytes, 'hex')::bloomfilter FROM ${t}_f WHERE name = 'fit')
                             | (SELECT decode(bytes, 'hex')::bloomfilter FROM ${t}_f WHERE name = 'fit_small')
         ELSE coalesce((SELECT decode(bytes, 'hex')::bloomfilter FROM ${t}_f WHERE name = m.name),
                       (SELECT decode(a.bytes, 'hex')::bloomfilter & decode(b.bytes, 'hex')::bloomfilter
                          FROM ${t}_f a, ${t}_f b
                         WHERE a.name = replace(m.name, '_and', '_half1') AND b.name = replace(m.name, '_and', '_half2')))
         END = decode(m.bytes, 'hex')::bloomfilter FROM mine m ORDER BY m.name;`);
    assert.equal(checks.length, built.size);
    for (const [name, equal] of checks) assert.equal(equal, 't', `${name}: server says the JS-built filter differs`);

    // bloom_info's stored fields
    const infos = sql(DB, `SELECT name, i.bits, i.hashes, i.seed, i.scheme, i.family, i.bits_set, i.items_added, i.bytes,
        i.format_version, i.over_ceiling, i.estimated_items, i.current_fpr
        FROM ${t}_f, bloom_info(decode(bytes, 'hex')::bloomfilter) i ORDER BY name;`);
    for (const [name, ...all] of infos) {
      const fields = all.slice(0, 10);
      const i = BloomFilter.fromBytes(fromSql.get(name)).info();
      if (name.startsWith('fit')) {
        close(Number(all[10]), i.estimatedItems, `${name}: estimated_items`);
        close(Number(all[11]), i.currentFpr, `${name}: current_fpr`);
      }
      assert.deepEqual(fields, [i.bits, i.hashes, i.seed, i.scheme, i.family, i.bitsSet, i.itemsAdded, i.bytes,
        i.formatVersion, i.overCeiling ? 't' : 'f'].map(String), `${name}: bloom_info`);
    }

    // 10^5 probes of every filter, members first
    const probed = ['double', 'double_seeded', 'double_square', 'double_cube', 'partition', 'independent',
      'blocked', 'blocked_seeded', 'partition_seeded', 'fit', 'fit_bits_state'];
    const answers = sql(DB, probed.map((name) =>
      `SELECT '${name}', translate(array_to_string(bloom_contains_each(f, (SELECT array_agg(v ORDER BY id) FROM ${t})), ''), 'tf', '10')
         FROM (SELECT decode(bytes, 'hex')::bloomfilter AS f FROM ${t}_f WHERE name = '${name}') x;`).join('\n'));
    assert.equal(answers.length, probed.length);
    for (const [name, bits] of answers) {
      const f = BloomFilter.fromBytes(fromSql.get(name));
      assert.equal(bits.length, PROBES);
      let disagree = 0;
      let positives = 0;
      for (let i = 0; i < PROBES; i++) {
        const mine = f.contains(js[i]);
        if ((mine ? '1' : '0') !== bits[i]) disagree++;
        if (mine) positives++;
        if (i < MEMBERS) assert.equal(mine, true, `${name}: member ${i} missing`);
      }
      assert.equal(disagree, 0, `${name}: ${disagree} of ${PROBES} probes disagree with SQL`);
      if (family !== 'bool') assert.ok(positives < PROBES, `${name}: every probe answered true`);
    }
  });
}
