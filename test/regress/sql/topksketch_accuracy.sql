-- topksketch guarantees, checked exactly against exact counts: on a
-- Zipf(1.1)-shaped stream of 1,000,000 integers and on the words and lines
-- of a real text, the documentation of the Debian package base-files (the
-- license texts in /usr/share/common-licenses); for summaries built in one
-- pass (in stream order and shuffled), merged from parts split four ways and
-- merged in five orders, passed between nodes as text and bytea, built in a
-- parallel plan and per partition.  The guarantees are deterministic, so
-- every one of them must hold for every value, and everything printed is a
-- boolean or a constant of the data.
-- (quietly: the extension exists when the whole suite runs, not when this test runs alone)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomsketch;
RESET client_min_messages;
SET max_parallel_workers_per_gather = 0;

-- ---- the guarantees ----
-- For a summary s with c counters of a multiset whose exact counts are in
-- the table named by exact (value text, n bigint), with N = sum(n):
--   total_ok          topk_total(s) = N;
--   size_ok           min(c, distinct values) values listed;
--   bounds_hold       every listed value: lower_bound <= n <= upper_bound,
--                     and count = lower_bound;
--   heavy_listed      every value with n > N / (c + 1) is listed;
--   unlisted_bounded  every value not listed occurs at most max_error times;
--   error_bounded     max_error <= N / (c + 1).
-- It also says whether the summary had to drop values (reduced: some value
-- is not listed), so that a check is not vacuous.  PARALLEL RESTRICTED: the
-- leader runs it over a summary that a parallel plan built.
CREATE FUNCTION topkacc_check(s topksketch, exact regclass,
	OUT total_ok boolean, OUT size_ok boolean, OUT bounds_hold boolean,
	OUT heavy_listed boolean, OUT unlisted_bounded boolean, OUT error_bounded boolean,
	OUT reduced boolean)
LANGUAGE plpgsql PARALLEL RESTRICTED AS $$
BEGIN
	EXECUTE format($q$
		WITH info AS (SELECT * FROM topk_info($1)),
		listed AS (SELECT t.*, coalesce(e.n, 0) AS n
		           FROM topk_items($1) t LEFT JOIN %1$s e ON e.value = t.value),
		unlisted AS (SELECT e.value, e.n FROM %1$s e
		             WHERE NOT EXISTS (SELECT 1 FROM listed l WHERE l.value = e.value))
		SELECT info.total = (SELECT sum(n) FROM %1$s),
		       (SELECT count(*) FROM listed) = info.entries AND
		       info.entries = least(info.counters, (SELECT count(*) FROM %1$s)),
		       coalesce((SELECT bool_and(lower_bound <= n AND n <= upper_bound AND count = lower_bound)
		                 FROM listed), true),
		       NOT EXISTS (SELECT 1 FROM unlisted u WHERE u.n * (info.counters + 1) > info.total),
		       coalesce((SELECT max(n) FROM unlisted), 0) <= info.max_error,
		       info.max_error * (info.counters + 1) <= info.total,
		       EXISTS (SELECT 1 FROM unlisted)
		FROM info $q$, exact)
	INTO total_ok, size_ok, bounds_hold, heavy_listed, unlisted_bounded, error_bounded, reduced
	USING s;
END $$;

-- ---- the Zipf stream ----
-- As in cmsketch_accuracy: item r, for r = 1..100,000, occurs once, plus its
-- share of 900,000 further values in proportion to r^-1.1, the shares
-- rounded so that they telescope to exactly 1,000,000 rows.  Ids number the
-- rows item by item, so the stream in id order is sorted by item.
CREATE TABLE topkacc_counts AS
WITH weights AS (
	SELECT r, power(r::float8, -1.1) AS p FROM generate_series(1, 100000) r),
shares AS (
	SELECT r, 900000 * sum(p) OVER (ORDER BY r) / sum(p) OVER () AS c FROM weights),
counts AS (
	SELECT r, 1 + (round(c) - round(coalesce(lag(c) OVER (ORDER BY r), 0)))::int AS n FROM shares)
SELECT r AS item, n, (sum(n) OVER (ORDER BY r) - n + 1)::bigint AS first_id FROM counts;
CREATE TABLE topkacc_stream AS
SELECT first_id + i AS id, item FROM topkacc_counts, generate_series(0, n - 1) i;
ANALYZE topkacc_stream;
CREATE TABLE topkacc_exact AS SELECT item::text AS value, count(*) AS n FROM topkacc_stream GROUP BY item;
SELECT count(*) AS rows, count(DISTINCT item) AS items,
       (SELECT max(n) FROM topkacc_exact) AS heaviest FROM topkacc_stream;

-- ---- one pass, in stream order and shuffled ----
CREATE TABLE topkacc_one_pass AS
SELECT 'sorted' AS stream_order, c, topk_agg(item, c) AS s
FROM topkacc_stream, (VALUES (10), (100), (1000)) v(c) GROUP BY c
UNION ALL
SELECT 'shuffled', c, topk_agg(item, c ORDER BY hashint8(id))
FROM topkacc_stream, (VALUES (10), (100), (1000)) v(c) GROUP BY c
UNION ALL
SELECT 'epsilon 0.001', 999, topk_agg(item, 10, 0.001) FROM topkacc_stream;
SELECT o.stream_order, o.c, i.counters, k.*
FROM topkacc_one_pass o, LATERAL topk_info(o.s) i, LATERAL topkacc_check(o.s, 'topkacc_exact') k
ORDER BY 1, 2;
-- the checks can fail: against counts with item 1 occurring once more, and
-- with a heavy value the stream never had
CREATE TABLE topkacc_exact_off_by_one AS
SELECT value, n + (value = '1')::int AS n FROM topkacc_exact;
CREATE TABLE topkacc_exact_extra AS
SELECT * FROM topkacc_exact UNION ALL SELECT 'not in the stream', 500000;
SELECT k.total_ok, k.bounds_hold, k.heavy_listed
FROM topkacc_one_pass o, LATERAL topkacc_check(o.s, 'topkacc_exact_off_by_one') k
WHERE o.stream_order = 'sorted' AND o.c = 100;
SELECT k.total_ok, k.heavy_listed, k.unlisted_bounded
FROM topkacc_one_pass o, LATERAL topkacc_check(o.s, 'topkacc_exact_extra') k
WHERE o.stream_order = 'sorted' AND o.c = 100;
-- with 100 counters the ten heaviest items come first; in the sorted stream
-- each arrives in one run, before anything is subtracted from its counter,
-- and is counted exactly, while shuffled ones lose some occurrences
SELECT o.stream_order,
       array_agg(t.value ORDER BY t.ord) = '{1,2,3,4,5,6,7,8,9,10}' AS top_ten_first,
       count(*) FILTER (WHERE t.count = e.n) AS counted_exactly
FROM topkacc_one_pass o,
     LATERAL (SELECT value, count, row_number() OVER () AS ord FROM topk_items(o.s) LIMIT 10) t
     JOIN topkacc_exact e USING (value)
WHERE o.c = 100 GROUP BY o.stream_order ORDER BY 1;

-- ---- merged from parts ----
-- Four ways of cutting the stream into parts: 8 by a hash of the row id, 8
-- runs of consecutive ids (each part holds items of its own, since the
-- stream is sorted), 8 by item modulo 8 (disjoint values), and 7 of very
-- different sizes (ids 1-7, 8-63, ..., 262144-1000000).  Each part's summary travels as text and as bytea
-- (as a distributed engine ships partial states) before the merges.
CREATE TABLE topkacc_parts AS
SELECT split, part, c, topk_agg(item, c) AS s
FROM (SELECT 'hash' AS split, hashint8(id) & 7 AS part, item FROM topkacc_stream
      UNION ALL SELECT 'runs', (id - 1) / 125000, item FROM topkacc_stream
      UNION ALL SELECT 'item mod 8', item % 8, item FROM topkacc_stream
      UNION ALL SELECT 'log8 of id', floor(ln(id::float8) / ln(8.0))::int, item FROM topkacc_stream) v,
     (VALUES (10), (100)) cs(c)
GROUP BY split, part, c;
SELECT split, count(*) / 2 AS parts, bool_and(s::text::topksketch = s) AS text_round_trip,
       bool_and(s::bytea::topksketch = s) AS bytea_round_trip
FROM topkacc_parts GROUP BY split ORDER BY split;
-- five merge orders: as the aggregate meets them, by part, by part
-- descending, a tree (pairs, then pairs of pairs), and a left fold with +
CREATE TABLE topkacc_merged AS
SELECT split, c, 'aggregate' AS merge_order, topk_merge_agg(s::text::topksketch) AS s
FROM topkacc_parts GROUP BY split, c
UNION ALL
SELECT split, c, 'by part', topk_merge_agg(s::bytea::topksketch ORDER BY part) FROM topkacc_parts GROUP BY split, c
UNION ALL
SELECT split, c, 'by part descending', topk_merge_agg(s ORDER BY part DESC) FROM topkacc_parts GROUP BY split, c
UNION ALL
SELECT split, c, 'tree', topk_merge_agg(s ORDER BY quarter)
FROM (SELECT split, c, part / 4 AS quarter, topk_merge_agg(s ORDER BY part) AS s
      FROM (SELECT split, c, part / 2 AS part, topk_merge_agg(s ORDER BY part) AS s
            FROM topkacc_parts GROUP BY split, c, part / 2) pairs
      GROUP BY split, c, part / 4) quarters
GROUP BY split, c;
CREATE FUNCTION topkacc_fold(split_ text, c_ int) RETURNS topksketch LANGUAGE plpgsql AS $$
DECLARE
	merged topksketch;
	part_s topksketch;
BEGIN
	FOR part_s IN SELECT s FROM topkacc_parts WHERE split = split_ AND c = c_ ORDER BY part LOOP
		merged := CASE WHEN merged IS NULL THEN part_s ELSE merged + part_s END;
	END LOOP;
	RETURN merged;
END $$;
INSERT INTO topkacc_merged
SELECT DISTINCT split, c, 'fold with +', topkacc_fold(split, c) FROM topkacc_parts;
SELECT split, c, count(*) AS orders, bool_and(k.total_ok) AS total_ok, bool_and(k.size_ok) AS size_ok,
       bool_and(k.bounds_hold) AS bounds_hold, bool_and(k.heavy_listed) AS heavy_listed,
       bool_and(k.unlisted_bounded) AS unlisted_bounded, bool_and(k.error_bounded) AS error_bounded,
       bool_and(k.reduced) AS reduced
FROM topkacc_merged, LATERAL topkacc_check(s, 'topkacc_exact') k
GROUP BY split, c ORDER BY split, c;
-- the merge of two is symmetric: a + b has the bytes of b + a
SELECT bool_and(a.s + b.s = b.s + a.s) AS merge_commutes
FROM topkacc_parts a JOIN topkacc_parts b USING (split, c) WHERE a.part < b.part;

-- ---- a fold at its error bound ----
-- A flat column of 10,000 values with ten planted heavy ones (values whose
-- low byte is 0xff, so that a summary lists them last), rows rare values
-- first, cut into 16 parts by a hash of the row id.  Each part's error is
-- close to its bound N / (c + 1), and the aggregate's table fills up while
-- it merges.  A reduction in the middle of one summary's entries once spent
-- the room that its later, heavy counts needed, and the merged summary broke
-- its own bound (reading it back failed).
CREATE TABLE topkacc_flat AS
SELECT row_number() OVER (ORDER BY n, item) AS id, item
FROM (SELECT item, count(*) OVER (PARTITION BY item) AS n
      FROM (SELECT (hashint4(i) & 2147483647) % 10000 AS item FROM generate_series(1, 100000) i
            UNION ALL
            SELECT 256 * j + 255 FROM generate_series(1, 10) j, generate_series(1, 200 * j)) v) w;
CREATE TABLE topkacc_flat_exact AS SELECT item::text AS value, count(*) AS n FROM topkacc_flat GROUP BY item;
CREATE TABLE topkacc_flat_parts AS
SELECT hashint8(id) & 15 AS part, topk_agg(item, 32 ORDER BY id) AS s FROM topkacc_flat GROUP BY 1;
SELECT merge_order, k.*
FROM (SELECT 'by part' AS merge_order, topk_merge_agg(s ORDER BY part) AS s FROM topkacc_flat_parts
      UNION ALL
      SELECT 'by part descending', topk_merge_agg(s ORDER BY part DESC) FROM topkacc_flat_parts) m,
     LATERAL topkacc_check(m.s, 'topkacc_flat_exact') k
ORDER BY 1;

-- ---- a parallel plan ----
CREATE FUNCTION topkacc_has_partial_aggregate(query text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (COSTS OFF, FORMAT JSON) ' || query INTO plan;
	RETURN plan::text LIKE '%"Partial Mode": "Partial"%';
END $$;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
-- (the plan checked is the plan of the very query whose result is printed)
\set q 'SELECT k.* FROM (SELECT topk_agg(item, 100) AS s FROM topkacc_stream) p, LATERAL topkacc_check(p.s, ''topkacc_exact'') k'
SELECT topkacc_has_partial_aggregate(:'q') AS partial_aggregate;
:q;
-- as many values as asked for, here and in every check above and below
\set q 'SELECT count(*) AS listed FROM topk_items((SELECT topk_agg(item::text, 100) FROM topkacc_stream))'
SELECT topkacc_has_partial_aggregate(:'q') AS partial_aggregate;
:q;
-- merging in parallel: 10,001 stored summaries of 100 consecutive rows each
CREATE TABLE topkacc_buckets AS SELECT id / 100 AS bucket, topk_agg(item, 10) AS s FROM topkacc_stream GROUP BY 1;
ANALYZE topkacc_buckets;
\set q 'SELECT k.* FROM (SELECT topk_merge_agg(s) AS s FROM topkacc_buckets) p, LATERAL topkacc_check(p.s, ''topkacc_exact'') k'
SELECT topkacc_has_partial_aggregate(:'q') AS partial_merge_aggregate;
:q;
-- the fold at its error bound, its parts split between workers whose
-- states the leader combines
ANALYZE topkacc_flat_parts;
\set q 'SELECT k.* FROM (SELECT topk_merge_agg(s) AS s FROM topkacc_flat_parts) p, LATERAL topkacc_check(p.s, ''topkacc_flat_exact'') k'
SELECT topkacc_has_partial_aggregate(:'q') AS partial_merge_aggregate;
:q;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

-- ---- per partition: partitionwise aggregation over 8 hash partitions ----
CREATE TABLE topkacc_partitioned (id bigint, item integer) PARTITION BY HASH (id);
SELECT format('CREATE TABLE topkacc_partitioned_%s PARTITION OF topkacc_partitioned FOR VALUES WITH (MODULUS 8, REMAINDER %s)', r, r)
FROM generate_series(0, 7) r \gexec
INSERT INTO topkacc_partitioned SELECT id, item FROM topkacc_stream;
ANALYZE topkacc_partitioned;
SET enable_partitionwise_aggregate = on;
\set q 'SELECT k.* FROM (SELECT topk_agg(item, 100) AS s FROM topkacc_partitioned) p, LATERAL topkacc_check(p.s, ''topkacc_exact'') k'
SELECT topkacc_has_partial_aggregate(:'q') AS partial_per_partition;
:q;
RESET enable_partitionwise_aggregate;

-- ---- a real text: the license texts of base-files ----
-- Words (lower case, letters only) and whole lines, with their exact counts.
-- (the files Debian 12, 13 and testing all have; a missing one is skipped)
CREATE TABLE topkacc_corpus AS
SELECT f AS file, body
FROM unnest('{Apache-2.0,Artistic,CC0-1.0,GFDL-1.2,GFDL-1.3,GPL-1,GPL-2,GPL-3,LGPL-2,LGPL-2.1,LGPL-3,MPL-1.1,MPL-2.0}'::text[]) f,
     LATERAL pg_read_file('/usr/share/common-licenses/' || f, 0, 10000000, true) body
WHERE body IS NOT NULL;
CREATE TABLE topkacc_words AS
SELECT file, w AS word FROM topkacc_corpus, regexp_split_to_table(lower(body), '[^a-z]+') w WHERE w <> '';
CREATE TABLE topkacc_lines AS
SELECT file, l AS line FROM topkacc_corpus, regexp_split_to_table(body, '\n') l WHERE btrim(l) <> '';
CREATE TABLE topkacc_word_exact AS SELECT word AS value, count(*) AS n FROM topkacc_words GROUP BY word;
CREATE TABLE topkacc_line_exact AS SELECT line AS value, count(*) AS n FROM topkacc_lines GROUP BY line;
SELECT (SELECT count(*) > 30000 FROM topkacc_words) AS many_words,
       (SELECT count(*) > 2000 FROM topkacc_word_exact) AS many_distinct_words,
       (SELECT count(*) > 2500 FROM topkacc_line_exact) AS many_distinct_lines;
SELECT 'words' AS corpus, c, k.*
FROM (VALUES (20), (200)) v(c),
     LATERAL (SELECT topk_agg(word, c) AS s FROM topkacc_words) a,
     LATERAL topkacc_check(a.s, 'topkacc_word_exact') k
UNION ALL
SELECT 'lines', c, k.*
FROM (VALUES (50)) v(c),
     LATERAL (SELECT topk_agg(line, c) AS s FROM topkacc_lines) a,
     LATERAL topkacc_check(a.s, 'topkacc_line_exact') k
ORDER BY 1, 2;
-- the most frequent words, as the exact counts rank them
SELECT (SELECT array_agg(value) FROM (SELECT value FROM topk_items((SELECT topk_agg(word, 200) FROM topkacc_words)) LIMIT 3) t)
     = (SELECT array_agg(value) FROM (SELECT value FROM topkacc_word_exact ORDER BY n DESC LIMIT 3) e)
       AS top_three_words;
-- one summary per license, merged in file order and in reverse
SELECT o.merge_order, k.*
FROM (SELECT 'by file' AS merge_order, topk_merge_agg(s ORDER BY file) AS s
      FROM (SELECT file, topk_agg(word, 50) AS s FROM topkacc_words GROUP BY file) f
      UNION ALL
      SELECT 'by file descending', topk_merge_agg(s ORDER BY file DESC)
      FROM (SELECT file, topk_agg(word, 50) AS s FROM topkacc_words GROUP BY file) f) o,
     LATERAL topkacc_check(o.s, 'topkacc_word_exact') k
ORDER BY 1;

-- ---- weighted rows: topk_weighted_agg ----
-- Pre-aggregated input, a value and its count per row, keeps every
-- guarantee against the summed counts: the Zipf counts (100,000 rows that
-- sum to 10^6) in item order and shuffled, the same with each count split
-- over two rows, and the words' counts.
SELECT w.input, k.*
FROM (SELECT 'item order' AS input, 'topkacc_exact' AS exact,
             topk_weighted_agg(item::text, n, 100 ORDER BY item) AS s FROM topkacc_counts
      UNION ALL
      SELECT 'shuffled', 'topkacc_exact', topk_weighted_agg(item::text, n, 100 ORDER BY hashint4(item))
      FROM topkacc_counts
      UNION ALL
      SELECT 'split in two', 'topkacc_exact', topk_weighted_agg(item::text, x.n, 100 ORDER BY x.half, hashint4(item))
      FROM topkacc_counts c, LATERAL (VALUES (1, c.n / 2), (2, c.n - c.n / 2)) x(half, n)
      UNION ALL
      SELECT 'words', 'topkacc_word_exact', topk_weighted_agg(value, n, 100 ORDER BY value)
      FROM topkacc_word_exact) w,
     LATERAL topkacc_check(w.s, w.exact::regclass) k
ORDER BY 1;
-- a count of n is n rows of the value in a row: the same bytes as topk_agg
-- over the stream, whose rows come item by item
SELECT (SELECT topk_weighted_agg(item, n, c ORDER BY item) FROM topkacc_counts)
     = (SELECT topk_agg(item, c ORDER BY id) FROM topkacc_stream) AS weighted_is_repeated, c
FROM (VALUES (10), (100)) v(c) ORDER BY c;
-- in a parallel plan (the typed overload, with its combine function)
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
\set q 'SELECT k.* FROM (SELECT topk_weighted_agg(item::text, n, 100) AS s FROM topkacc_counts) p, LATERAL topkacc_check(p.s, ''topkacc_exact'') k'
SELECT topkacc_has_partial_aggregate(:'q') AS partial_aggregate;
:q;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;

-- ---- the jsonb view, postgresql-topn's form ----
-- one key per listed value, its text as topk_items gives it, with its count
SELECT (SELECT count(*) FROM jsonb_each(s::jsonb)) = (topk_info(s)).entries AS one_key_each,
       s::jsonb = (SELECT jsonb_object_agg(value, count) FROM topk_items(s)) AS same_as_items,
       topksketch_to_jsonb(s) = s::jsonb AS cast_is_function
FROM (SELECT topk_agg(word, 100) AS s FROM topkacc_words) w;
