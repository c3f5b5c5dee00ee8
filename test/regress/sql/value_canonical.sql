-- Hashing depends on the value alone (docs/values.md): never on
-- how a value is stored, on a cache's memory addresses, on the client
-- encoding or on OIDs.  Each block below failed before format version 2.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomsketch;
RESET client_min_messages;

-- 1. Values stored out of line or compressed hash by their content, not by
--    their TOAST pointer: probed with the same values as expressions, no
--    false negatives, and cms_estimate counts each one.
CREATE TABLE long_values (id int, v text, b bytea);
ALTER TABLE long_values ALTER COLUMN b SET STORAGE EXTERNAL;
INSERT INTO long_values
SELECT i, string_agg(md5((i * 1000 + j)::text), ''), string_agg(md5(j::text), '')::bytea || int4send(i)
FROM generate_series(1, 300) i, generate_series(1, 100) j GROUP BY i;
INSERT INTO long_values SELECT 1000 + i, repeat('ab', 2000) || i, NULL FROM generate_series(1, 5) i;
-- the rows really are out of line (values in the TOAST table: 300 text, 300
-- uncompressed bytea) and compressed inline (5 text)
SELECT reltoastrelid::regclass AS toast FROM pg_class WHERE relname = 'long_values' \gset
SELECT count(DISTINCT chunk_id) AS values_out_of_line FROM :toast;
SELECT count(*) FILTER (WHERE pg_column_compression(b) IS NULL AND b IS NOT NULL) AS bytea_uncompressed,
       count(*) FILTER (WHERE pg_column_compression(v) IS NOT NULL
                        AND pg_column_size(v) < 2000) AS text_compressed_inline
FROM long_values;
WITH f AS (SELECT bloom_agg(v, 1000) AS tf, bloom_agg(b, 1000) AS bf, cms_agg(v) AS c FROM long_values)
SELECT count(*) AS probes,
       count(*) FILTER (WHERE NOT f.tf @> (v || '')) AS text_misses,
       count(*) FILTER (WHERE b IS NOT NULL AND NOT bloom_contains(f.bf, b || ''::bytea)) AS bytea_misses,
       count(*) FILTER (WHERE cms_estimate(f.c, v || '') < 1) AS cms_under
FROM long_values, f;
SELECT bloom_add(bloom_create(10), v) @> (v || '') AS found,
       cms_estimate(cms_add(cms_create(), v), v || '') AS counted
FROM long_values WHERE id = 1;
-- five copies of one long value are one distinct value
SELECT round(bloom_cardinality(bloom_agg(v, 1000))) AS distinct_values
FROM (SELECT v FROM long_values WHERE id = 1 UNION ALL SELECT v || '' FROM long_values WHERE id = 1
      UNION ALL SELECT v FROM long_values WHERE id = 1 UNION ALL SELECT v FROM long_values WHERE id = 1
      UNION ALL SELECT v FROM long_values WHERE id = 1) s;

-- 2. A large filter kept in a PL/pgSQL variable is probed as it is now, not
--    as a copy cached under its old address.
DO $$
DECLARE
	f bloomfilter;
	c cmsketch;
	misses int := 0;
	under int := 0;
BEGIN
	f := bloom_create(4000000, 0.01);
	c := cms_create(0.0001, 0.001);
	FOR i IN 1..60 LOOP
		f := bloom_add(f, i);
		c := cms_add(c, i);
		IF i % 4 = 0 AND NOT bloom_contains(f, i) THEN misses := misses + 1; END IF;
		IF i % 4 = 0 AND cms_estimate(c, i) < 1 THEN under := under + 1; END IF;
	END LOOP;
	RAISE NOTICE 'false negatives: % of 15, under-estimates: % of 15', misses, under;
END
$$;

-- 3. Values that SQL calls equal hash alike.
SELECT bloom_add(bloom_create(10), (ARRAY[1, 2, NULL]::int[])[1:2]) @> ARRAY[1, 2] AS sliced_array,
       bloom_add(bloom_create(10), ARRAY[1, 2]::int2[]) @> ARRAY[1, 2]::int8[] AS int2_int8_array,
       bloom_add(bloom_create(10), '{0}'::float8[]) @> '{-0}'::float8[] AS zero_array,
       bloom_add(bloom_create(10), ARRAY['Infinity'::float8 - 'Infinity']) @> ARRAY['NaN'::float8] AS nan_array,
       bloom_add(bloom_create(10), ROW(1::int, 'a'::text)) @> ROW(1::int8, 'a'::text) AS row_int_int8,
       bloom_add(bloom_create(10), '{1.0}'::numeric[]) @> '{1.00}'::numeric[] AS numeric_array,
       bloom_add(bloom_create(10), '{"a  "}'::bpchar[]) @> '{a}'::bpchar[] AS bpchar_array,
       bloom_add(bloom_create(10), '[1.0,2.0]'::numrange) @> '[1,2]'::numrange AS numrange,
       bloom_add(bloom_create(10), '{"a": 1.0, "b": [2.50, {"c": null}]}'::jsonb)
         @> '{"b": [2.5, {"c": null}], "a": 1}'::jsonb AS jsonb,
       bloom_add(bloom_create(10), interval '1 day') @> interval '24 hours' AS interval,
       bloom_add(bloom_create(10), '10.1.0.0/16'::cidr) @> '10.1.0.0/16'::inet AS cidr_inet;
-- ... and values that SQL tells apart do not (the families and tags differ,
-- or the canonical bytes do).
SELECT bloom_add(bloom_create(1000, 0.0001), ARRAY[1, 2]) @> ARRAY[2, 1] AS reordered_array,
       bloom_add(bloom_create(1000, 0.0001), '[0:1]={1,2}'::int[]) @> ARRAY[1, 2] AS other_lower_bound,
       bloom_add(bloom_create(1000, 0.0001), '[1,2)'::int4range) @> '[1,3)'::int4range AS other_range,
       bloom_add(bloom_create(1000, 0.0001), '1'::jsonb) @> '[1]'::jsonb AS scalar_vs_array;
-- The same value through a column of a composite type and as a ROW.
CREATE TYPE pair AS (a int, b text);
CREATE TABLE pairs (p pair);
INSERT INTO pairs SELECT ROW(i, repeat('x', i))::pair FROM generate_series(1, 100) i;
SELECT count(*) FILTER (WHERE NOT f @> ROW(i, repeat('x', i))) AS misses
FROM (SELECT bloom_agg(p, 100) AS f FROM pairs) s, generate_series(1, 100) i;
-- A dropped column is left out: the row type after DROP COLUMN hashes as one
-- built without it.
ALTER TABLE pairs ADD COLUMN extra int;
CREATE TYPE triple AS (a int, gone int, b text);
ALTER TYPE triple DROP ATTRIBUTE gone;
SELECT bloom_add(bloom_create(10), ROW(1, 'x')::triple) @> ROW(1, 'x')::pair AS dropped_column;

-- 4. Encodings: text hashes as UTF-8 under any client encoding, so serial
--    and parallel builds agree (workers and the leader once hashed in
--    different encodings) and a filter built under LATIN1 finds the values
--    under UTF8.
CREATE TABLE accented AS
SELECT ARRAY[chr(233) || i::text, 'caf' || chr(233)] AS arr, chr(233) || i::text AS t
FROM generate_series(1, 20000) i;
ANALYZE accented;
SET client_encoding = 'LATIN1';
CREATE TABLE latin1_built AS SELECT bloom_agg(arr, 20000) AS fa, bloom_agg(t, 20000) AS ft FROM accented;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = off;
-- Arrays have no typed bloom_agg, and the anyelement one has no combine
-- function (so that Citus gathers them): they are hashed in parallel
-- workers by probing there.
-- (the plan is read as JSON: its text form differs between versions)
CREATE FUNCTION probed_in_workers(query text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (COSTS OFF, FORMAT JSON) ' || query INTO plan;
	RETURN plan::text LIKE '%"Partial Mode": "Partial"%'
		AND plan::text LIKE '%"Parallel Aware": true%';
END $$;
SELECT probed_in_workers('SELECT count(*) FROM accented WHERE (SELECT fa FROM latin1_built) @> arr');
DROP FUNCTION probed_in_workers(text);
CREATE TABLE parallel_probed AS
SELECT count(*) AS hits FROM accented WHERE (SELECT fa FROM latin1_built) @> arr;
CREATE TABLE parallel_built AS SELECT bloom_agg(arr, 20000) AS fa FROM accented;
RESET parallel_leader_participation;
RESET min_parallel_table_scan_size;
RESET parallel_tuple_cost;
RESET parallel_setup_cost;
RESET max_parallel_workers_per_gather;
RESET client_encoding;
SELECT (SELECT hits FROM parallel_probed) = (SELECT count(*) FROM accented) AS all_hit_in_parallel,
       (SELECT fa FROM latin1_built) = (SELECT fa FROM parallel_built) AS same_bytes,
       (SELECT fa FROM latin1_built) = (SELECT bloom_agg(arr, 20000) FROM accented) AS same_as_utf8;
SELECT count(*) FILTER (WHERE NOT l.fa @> arr) AS array_misses,
       count(*) FILTER (WHERE NOT l.ft @> t) AS text_misses
FROM accented, latin1_built l;

-- 5. Types whose equality is not bytewise, or that have no canonical form,
--    are refused with a hint (0A000), through every overload.
\set VERBOSITY default
CREATE TYPE mood AS ENUM ('sad', 'ok');
SELECT bloom_add(bloom_create(10), 'sad'::mood);
SELECT cms_agg(m) FROM (VALUES ('ok'::mood)) t(m);
SELECT bloom_agg(ARRAY['sad'::mood], 10);
CREATE EXTENSION citext;
CREATE TABLE ci (c citext);
INSERT INTO ci VALUES ('Alice');
SELECT bloom_agg(c, 10) FROM ci;
SELECT bloom_create(10) @> c FROM ci;
SELECT bloom_add(bloom_create(10), c) FROM ci;
SELECT cms_estimate(cms_create(), c) FROM ci;
-- a citext constant or PL/pgSQL variable is refused too, not hashed as text
SELECT bloom_add(bloom_create(10), 'Alice'::citext) @> 'alice'::citext;
SELECT cms_add(cms_create(), 'Alice'::citext, 2);
DO $$ DECLARE c citext := 'Alice'; BEGIN PERFORM bloom_create(10) @> c; END $$;
CREATE COLLATION case_insensitive (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
SELECT bloom_agg(t COLLATE case_insensitive, 10) FROM (VALUES ('a')) v(t);
SELECT bloom_add(bloom_create(10), 'a'::text COLLATE "C") @> 'a' AS deterministic_collation;
SELECT bloom_add(bloom_create(10), point(1, 2));
-- An untyped literal or parameter is text; "char" hashes as the text it
-- casts to and pg_node_tree is refused (both were ambiguous calls, 42725,
-- while text had overloads of its own).
SELECT bloom_add(bloom_create(10), 'abc') = bloom_add(bloom_create(10), 'abc'::text) AS literal_is_text,
       bloom_add(bloom_create(10), 'abc'::text) @> 'abc' AS literal_found,
       'abc' <@ bloom_add(bloom_create(10), 'abc'::varchar) AS literal_found_swapped,
       cms_estimate(cms_add(cms_add(cms_create(), 'abc', 3), 'abc'::text), 'abc') AS literal_counted;
PREPARE untyped_probe AS SELECT bloom_add(bloom_create(10), 'abc'::text) @> $1;
EXECUTE untyped_probe('abc');
DEALLOCATE untyped_probe;
SELECT bloom_add(bloom_create(10), 'a'::"char") @> 'a'::text AS char_found,
       cms_estimate(cms_add(cms_create(), 'a'::text), 'a'::"char") AS char_counted;
SELECT bloom_add(bloom_create(10), (SELECT ev_action FROM pg_rewrite LIMIT 1));

-- 6. A transition function called outside an aggregate is a clear error.
SELECT bloom_agg_trans(NULL, 1, 10);
SELECT cms_agg_trans(NULL, 1);

DROP TABLE long_values, pairs, accented, latin1_built, parallel_built, ci;
DROP TYPE pair, triple, mood;
DROP COLLATION case_insensitive;
DROP EXTENSION citext;
