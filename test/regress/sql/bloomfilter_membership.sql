-- No false negatives, and a false-positive rate that matches the configured
-- one: for 100,000 non-members at p = 0.01, the 99.9% binomial interval is
-- p +- 3.2905 * sqrt(p (1 - p) / 100000).  Hashing is deterministic, so the
-- counts below are fixed; the interval check says they are also plausible.
CREATE EXTENSION IF NOT EXISTS bloomsketch;

CREATE TABLE mem_int AS SELECT i::bigint AS v FROM generate_series(1, 100000) i;
CREATE TABLE mem_text AS SELECT 'user-' || md5(i::text) AS v FROM generate_series(1, 100000) i;
CREATE TABLE mem_uuid AS
	SELECT md5('uuid' || i)::uuid AS v FROM generate_series(1, 100000) i;

CREATE TABLE mem_filters AS
SELECT 'integer' AS family, (SELECT bloom_agg(v, 100000, 0.01) FROM mem_int) AS f
UNION ALL SELECT 'text', (SELECT bloom_agg(v, 100000, 0.01) FROM mem_text)
UNION ALL SELECT 'uuid', (SELECT bloom_agg(v, 100000, 0.01) FROM mem_uuid);

SELECT family, b.items_added, b.bits, b.hashes FROM mem_filters, LATERAL bloom_info(f) b ORDER BY family;

-- Zero false negatives for every inserted value of each family.
SELECT * FROM (
	SELECT 'integer' AS family, count(*) FILTER (WHERE NOT bloom_contains(f, v)) AS false_negatives
	FROM mem_int, mem_filters WHERE family = 'integer'
	UNION ALL
	SELECT 'text', count(*) FILTER (WHERE NOT bloom_contains(f, v))
	FROM mem_text, mem_filters WHERE family = 'text'
	UNION ALL
	SELECT 'uuid', count(*) FILTER (WHERE NOT f @> v)
	FROM mem_uuid, mem_filters WHERE family = 'uuid'
) s ORDER BY family;

-- False positives over 100,000 values never added.
CREATE FUNCTION mem_interval_check(hits bigint, trials bigint, p float8)
RETURNS TABLE (false_positives bigint, rate float8, low float8, high float8, inside boolean)
LANGUAGE sql IMMUTABLE AS $$
	SELECT hits, hits::float8 / trials,
	       p - 3.2905 * sqrt(p * (1 - p) / trials),
	       p + 3.2905 * sqrt(p * (1 - p) / trials),
	       hits::float8 / trials BETWEEN p - 3.2905 * sqrt(p * (1 - p) / trials)
	                                 AND p + 3.2905 * sqrt(p * (1 - p) / trials)
$$;

SELECT * FROM (
SELECT 'integer' AS family, c.*
FROM (SELECT count(*) FILTER (WHERE bloom_contains(f, i::bigint)) AS hits
      FROM generate_series(1000001, 1100000) i, mem_filters WHERE family = 'integer') s,
     LATERAL mem_interval_check(s.hits, 100000, 0.01) c
UNION ALL
SELECT 'text', c.*
FROM (SELECT count(*) FILTER (WHERE bloom_contains(f, 'nobody-' || md5(i::text))) AS hits
      FROM generate_series(1, 100000) i, mem_filters WHERE family = 'text') s,
     LATERAL mem_interval_check(s.hits, 100000, 0.01) c
UNION ALL
SELECT 'uuid', c.*
FROM (SELECT count(*) FILTER (WHERE (md5('absent' || i)::uuid) <@ f) AS hits
      FROM generate_series(1, 100000) i, mem_filters WHERE family = 'uuid') s,
     LATERAL mem_interval_check(s.hits, 100000, 0.01) c
) s ORDER BY family;

-- The same filter read from a table through a scalar subquery (the cached,
-- detoasted-once path) gives the same answers as the filter itself.
SELECT (SELECT count(*) FROM generate_series(1, 200000) i
        WHERE bloom_contains((SELECT f FROM mem_filters WHERE family = 'integer'), i::bigint)) AS via_subquery,
       (SELECT count(*) FROM generate_series(1, 200000) i, mem_filters
        WHERE family = 'integer' AND bloom_contains(f, i::bigint)) AS via_join;

-- NULLs: a NULL value or filter gives NULL, as for any strict operator.
SELECT bloom_contains(f, NULL::bigint) IS NULL AS null_value,
       bloom_contains(NULL::bloomfilter, 1) IS NULL AS null_filter,
       (f @> NULL::bigint) IS NULL AS null_operator
FROM mem_filters WHERE family = 'integer';
-- bloom_add with a NULL value returns the filter unchanged; a NULL filter gives NULL.
SELECT bloom_add(f, NULL::bigint)::bytea = f::bytea AS unchanged,
       bloom_add(NULL::bloomfilter, 1) IS NULL AS null_filter
FROM mem_filters WHERE family = 'integer';

-- Probing many stored filters in turn (a join against per-day filters) gives,
-- for every filter, the same answers as probing it alone: the per-call-site
-- cache of detoasted filters never confuses one filter for another, also when
-- there are more filters than it holds.
CREATE TABLE mem_days AS
SELECT d, bloom_agg(i, 3000, 0.01) AS f
FROM generate_series(1, 300) d, LATERAL generate_series(d * 10, d * 10 + 2999) i GROUP BY d;
CREATE TABLE mem_probes AS SELECT i FROM generate_series(1, 4000) i;
SELECT count(*) AS days, bool_and(j.hits = s.hits) AS join_equals_alone, sum(j.hits) AS total_hits
FROM (SELECT d, count(*) AS hits FROM mem_probes p JOIN mem_days m ON bloom_contains(m.f, p.i) GROUP BY d) j
JOIN LATERAL (SELECT count(*) AS hits FROM mem_probes p WHERE bloom_contains((SELECT f FROM mem_days x WHERE x.d = j.d), p.i)) s ON true;

-- Stored filters of 4 MB and more are probed through a private copy (on huge
-- pages, its bit array on a cache line): it answers as the value does when
-- probed in place, for both schemes, and a call site that meets more than
-- 64 MB of them (with work_mem below that, as by default) drops the oldest
-- copies (28 filters of 4.8 MB here).  A compressed one is detoasted and
-- copied; one stored without compression (mem_large_plain, STORAGE EXTERNAL)
-- is read from its TOAST table straight into the copy.
CREATE TABLE mem_large AS
SELECT n, s AS scheme,
       (SELECT bloom_agg(i, 4000000, 0.01, s) FROM generate_series(n * 1000, n * 1000 + 19999) i) AS f
FROM generate_series(1, 7) n, unnest(ARRAY['double', 'blocked']) s;
CREATE TABLE mem_large_plain (n int, scheme text, f bloomfilter);
ALTER TABLE mem_large_plain ALTER COLUMN f SET STORAGE EXTERNAL;
INSERT INTO mem_large_plain
SELECT n, s, (SELECT bloom_agg(i, 4000000, 0.01, s) FROM generate_series(n * 1000, n * 1000 + 19999) i)
FROM generate_series(1, 7) n, unnest(ARRAY['double', 'blocked']) s;
CREATE VIEW mem_large_all AS
SELECT n, scheme, 'compressed' AS storage, f FROM mem_large
UNION ALL
SELECT n, scheme, 'plain', f FROM mem_large_plain;
SELECT storage, count(*) AS filters, min(bytes) >= 4 * 1024 * 1024 AS all_copied,
       bool_and(compressed = (storage = 'compressed')) AS stored_as_named,
       bool_and(copied = in_place) AS copy_answers_alike,
       bool_and(copied = joined) AS join_answers_alike,
       bool_and(members_found = 20000) AS no_false_negatives
FROM (SELECT m.n, m.scheme, m.storage, (bloom_info(m.f)).bytes,
             pg_column_compression(m.f) IS NOT NULL AS compressed,
             (SELECT count(*) FROM generate_series(1, 40000) i
              WHERE bloom_contains((SELECT f FROM mem_large_all x
                                    WHERE (x.n, x.scheme, x.storage) = (m.n, m.scheme, m.storage)), i)) AS copied,
             (SELECT count(*) FROM generate_series(1, 40000) i
              WHERE bloom_contains((SELECT f::bytea::bloomfilter FROM mem_large_all x
                                    WHERE (x.n, x.scheme, x.storage) = (m.n, m.scheme, m.storage)), i)) AS in_place,
             (SELECT count(*) FROM generate_series(m.n * 1000, m.n * 1000 + 19999) i
              WHERE bloom_contains((SELECT f FROM mem_large_all x
                                    WHERE (x.n, x.scheme, x.storage) = (m.n, m.scheme, m.storage)), i)) AS members_found
      FROM mem_large_all m) per_filter
JOIN (SELECT m.n, m.scheme, m.storage, j.joined
      FROM mem_large_all m,
           LATERAL (SELECT count(*) AS joined FROM generate_series(1, 40000) i
                    WHERE bloom_contains(m.f, i)) j) j USING (n, scheme, storage)
GROUP BY storage ORDER BY storage;

-- A call site keeps stored filters up to 64 MB, or work_mem when that is
-- larger: with work_mem at 256 MB, values that cycle row by row through all
-- 28 large filters (134 MB) find each of them in the cache, and answer as
-- probing one filter at a time does.
SET work_mem = '256MB';
SELECT count(*) AS probes, bool_and(cycled.hit = one_by_one.hit) AS cycling_answers_alike,
       sum(cycled.hit::int) AS hits
FROM (SELECT v, m.n, m.scheme, m.storage, bloom_contains(m.f, v) AS hit
      FROM generate_series(0, 40000, 200) v
      CROSS JOIN LATERAL (SELECT * FROM mem_large_all WHERE v IS NOT NULL OFFSET 0) m) cycled
JOIN (SELECT m.n, m.scheme, m.storage, v, bloom_contains(m.f, v) AS hit
      FROM mem_large_all m
      CROSS JOIN LATERAL (SELECT v FROM generate_series(0, 40000, 200) v WHERE m.n IS NOT NULL OFFSET 0) s) one_by_one
USING (v, n, scheme, storage);
RESET work_mem;
