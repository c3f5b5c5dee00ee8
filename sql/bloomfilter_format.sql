-- Values stored by this version stay readable: test/bloomfilter_v1.tsv holds
-- filters written in format version 1 (text form, one per line) when the
-- format was introduced.  Reading them must give the identical text back and
-- the same answers.  A later format version must keep this test passing
-- (docs/format.md, "Format versions").
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomsketch;
RESET client_min_messages;

CREATE TABLE fmt_v1 (what text, f bloomfilter);
\copy fmt_v1 FROM 'test/bloomfilter_v1.tsv'
CREATE TABLE fmt_v1_text (what text, t text);
\copy fmt_v1_text FROM 'test/bloomfilter_v1.tsv'

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

-- test/bloomfilter_v2.tsv holds filters written in format version 2 when it
-- was introduced: text as UTF-8 and family other through canonical forms
-- (docs/values.md).  The same text comes back and the same values
-- are found.
CREATE TABLE fmt_v2 (what text, f bloomfilter);
\copy fmt_v2 FROM 'test/bloomfilter_v2.tsv'
CREATE TABLE fmt_v2_text (what text, t text);
\copy fmt_v2_text FROM 'test/bloomfilter_v2.tsv'
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
