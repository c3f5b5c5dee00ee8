-- Values stored by this version stay readable: test/data/bloomfilter_v1.tsv holds
-- filters written in format version 1 (text form, one per line) when the
-- format was introduced.  Reading them must give the identical text back and
-- the same answers.  A later format version must keep this test passing
-- (docs/format.md, "Format versions").
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomsketch;
RESET client_min_messages;

CREATE TABLE fmt_v1 (what text, f bloomfilter);
\copy fmt_v1 FROM 'test/data/bloomfilter_v1.tsv'
CREATE TABLE fmt_v1_text (what text, t text);
\copy fmt_v1_text FROM 'test/data/bloomfilter_v1.tsv'

SELECT what, b.format_version, b.family,
       b.bits, b.hashes, b.seed, b.items_added, f::text = t AS identical_text
FROM fmt_v1 JOIN fmt_v1_text USING (what), LATERAL bloom_info(f) b
ORDER BY what;

-- The same answers as when the values were written.
SELECT (SELECT count(*) FROM generate_series(1, 1000) i WHERE bloom_contains(f, i)) AS members_found,
       (SELECT count(*) FROM generate_series(1001, 101000) i WHERE bloom_contains(f, i)) AS false_positives
FROM fmt_v1 WHERE what LIKE 'integer%';
SELECT (SELECT count(*) FROM generate_series(1, 26) i WHERE bloom_contains(f, chr(96 + i))) AS letters_found,
       bloom_contains(f, 'A') AS upper_a
FROM fmt_v1 WHERE what LIKE 'text%';
SELECT bloom_contains(f, '6ba7b810-9dad-11d1-80b4-00c04fd430c8'::uuid) AS uuid_found FROM fmt_v1 WHERE what = 'uuid';
-- Values of family other were hashed through their binary send form in format
-- version 1; such a filter is refused with a hint to rebuild it.
SELECT bloom_contains(f, '10.0.0.1'::inet) AS inet_found FROM fmt_v1 WHERE what = 'inet (other)';
-- Filters built now with the same parameters still combine with them.
SELECT (f | (SELECT bloom_agg(i::bigint, 1000, 0.01) FROM generate_series(1001, 1010) i)) IS NOT NULL AS combines
FROM fmt_v1 WHERE what LIKE 'integer%';
-- Text was hashed in the database encoding in format version 1 and is hashed
-- as UTF-8 from version 2 on: the same bytes in a UTF-8 (or SQL_ASCII)
-- database, where a version 1 text filter answers probes and so also
-- combines with a version 2 one, the result taking version 2 (docs/format.md,
-- "Format versions").  A version 2 filter of the same parameters built from
-- the same letters has the same bits; with 'é' added it is "new".
CREATE TABLE fmt_v1_v2_text AS
WITH empty AS (
  SELECT ('bloom:v2:double:none:k=10:m=1439:seed=0:items=0:' ||
          translate(encode(decode(repeat('00', 184), 'hex'), 'base64'), E'\n', ''))::bloomfilter AS e),
letters AS (SELECT bloom_union_agg(bloom_add(e, chr(96 + i))) AS l FROM empty, generate_series(1, 26) i)
SELECT f AS old, bloom_add(l, chr(233)) AS new,
       replace(f::text, 'bloom:v1:', 'bloom:v2:') = l::text AS same_bits_as_version_2
FROM fmt_v1, letters WHERE what LIKE 'text%';
SELECT same_bits_as_version_2 FROM fmt_v1_v2_text;
SELECT (bloom_info(old)).bits = (bloom_info(new)).bits AS same_size,
       (bloom_info(old | new)).format_version AS union_version,
       (bloom_info(new | old)).format_version AS swapped_union_version,
       (bloom_info(old | new)).bits_set = (bloom_info(new)).bits_set AS union_bits,
       (bloom_info(old & new)).bits_set = (bloom_info(old)).bits_set AS intersection_bits,
       (bloom_info(old & new)).format_version AS intersection_version,
       (SELECT count(*) FROM generate_series(1, 26) i WHERE (old | new) @> chr(96 + i))
         + ((old | new) @> chr(233))::int AS union_finds,
       round(bloom_union_cardinality(old, new)) = round(bloom_cardinality(new)) AS union_estimate,
       round(bloom_intersection_cardinality(new, old)) = round(bloom_cardinality(old)) AS intersection_estimate
FROM fmt_v1_v2_text;
SELECT (bloom_info(bloom_union_agg(f))).format_version AS union_agg_version,
       (bloom_info(bloom_intersect_agg(f))).format_version AS intersect_agg_version,
       bloom_union_agg(f) = (SELECT old | new FROM fmt_v1_v2_text) AS union_agg_is_union
FROM (SELECT old FROM fmt_v1_v2_text UNION ALL SELECT new FROM fmt_v1_v2_text) t(f);
-- In a LATIN1 database version 1 text hashed LATIN1 bytes: there it answers
-- no probe and combines with no version 2 filter.
SELECT old::text AS old_text, new::text AS new_text FROM fmt_v1_v2_text \gset
\set regress_db :DBNAME
CREATE DATABASE bs_format_latin1 TEMPLATE template0 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C';
\c bs_format_latin1
SET client_min_messages = warning;
CREATE EXTENSION bloomsketch;
RESET client_min_messages;
SELECT :'old_text'::bloomfilter @> 'a'::text;
SELECT :'old_text'::bloomfilter | :'new_text'::bloomfilter;
SELECT bloom_union_cardinality(:'new_text', :'old_text');
\c :regress_db
DROP DATABASE bs_format_latin1;
DROP TABLE fmt_v1_v2_text;

-- test/data/bloomfilter_v2.tsv holds filters written in format version 2 when it
-- was introduced: text as UTF-8 and family other through canonical forms
-- (docs/values.md).  The same text comes back and the same values
-- are found.
CREATE TABLE fmt_v2 (what text, f bloomfilter);
\copy fmt_v2 FROM 'test/data/bloomfilter_v2.tsv'
CREATE TABLE fmt_v2_text (what text, t text);
\copy fmt_v2_text FROM 'test/data/bloomfilter_v2.tsv'
SELECT what, b.format_version, b.family, b.bits, b.hashes, b.items_added, f::text = t AS identical_text
FROM fmt_v2 JOIN fmt_v2_text USING (what), LATERAL bloom_info(f) b
ORDER BY what;
SELECT what,
       CASE split_part(what, ':', 1)
         WHEN 'integer' THEN (SELECT count(*) FROM generate_series(1, 1000) i WHERE f @> i)
         WHEN 'text' THEN (SELECT count(*) FROM generate_series(1, 26) i WHERE f @> chr(96 + i))
                          + (f @> ('caf' || chr(233)))::int
         WHEN 'array(integer)' THEN (SELECT count(*) FROM generate_series(1, 100) i WHERE f @> ARRAY[i, i + 1]::int8[])
         WHEN 'record(integer,text)' THEN (SELECT count(*) FROM generate_series(1, 50) i WHERE f @> ROW(i::int8, repeat('x', i)))
         WHEN 'jsonb' THEN (SELECT count(*) FROM generate_series(1, 50) i
                            WHERE f @> format('{"s": [%s], "n": %s}', i, i / 4.0)::jsonb)
         WHEN 'range(numeric)' THEN (SELECT count(*) FROM generate_series(1, 50) i WHERE f @> numrange(i, 2 * i, '[]'))
         WHEN 'interval' THEN (SELECT count(*) FROM generate_series(1, 50) i WHERE f @> i * interval '60 minutes')
         WHEN 'inet' THEN (SELECT count(*) FROM generate_series(1, 50) i WHERE f @> ('10.0.0.' || i)::cidr)
       END AS members_found
FROM fmt_v2 ORDER BY what;
DROP TABLE fmt_v2, fmt_v2_text;
