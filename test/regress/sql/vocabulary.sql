-- One vocabulary for the three types (docs/reference.md#vocabulary): the
-- operations each type gained so that every type has the words of the
-- others.  topk_create, topk_add, topk_estimate and topk_bounds keep the
-- guarantees of topk_agg (docs/topk.md), checked against exact counts for
-- every value of a seeded stream, through single and weighted adds, merges
-- with aggregate results and adds onto them; the & operator and
-- cms_intersect_agg of count-min sketches are cms_intersect.
-- (quietly: the extension exists when the whole suite runs, not when this test runs alone)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomsketch;
RESET client_min_messages;
SET max_parallel_workers_per_gather = 0;

-- Runs a statement and reports its SQLSTATE and message, or 'ok'.
CREATE FUNCTION vocab_try(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE query;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- ---- topk_create: an empty summary sized as topk_agg sizes ----
SELECT i.* FROM topk_info(topk_create(20)) i;
SELECT (SELECT counters FROM topk_info(topk_create(5, 0.01))) AS create_counters,
       (SELECT counters FROM topk_info(topk_agg(x, 5, 0.01))) AS agg_counters
FROM generate_series(1, 3) x;
-- it merges with topk_agg's results of the same parameters, changing nothing
SELECT topk_create(3) + s = s AS left_identity, s + topk_create(3) = s AS right_identity,
       (SELECT topk_merge_agg(t) FROM (VALUES (topk_create(3)), (s)) m(t)) = s AS merge_agg_identity
FROM (SELECT topk_agg(x % 5, 3) AS s FROM generate_series(1, 100) x) a;
SELECT topk_create(3, 0.2) = topk_create(4) AS epsilon_sizes_alike;

-- ---- a seeded, skewed stream and its exact counts ----
-- (i * 7919) % 20000 runs through 0 .. 19999 once, so v takes value 0 for
-- about 27% of the rows and thins out to 199.
CREATE TABLE vocab_stream AS
SELECT i, floor(200 * power(((i::bigint * 7919) % 20000 + 0.5) / 20000, 4))::int AS v
FROM generate_series(1, 20000) i;
CREATE TABLE vocab_exact AS
SELECT v, count(s.i) AS n FROM generate_series(0, 199) v LEFT JOIN vocab_stream s USING (v) GROUP BY v;
SELECT count(*) AS stream, count(DISTINCT v) AS distinct_values, max(n) AS heaviest
FROM vocab_stream, (SELECT max(n) AS n FROM vocab_exact) e GROUP BY e.n;

-- adds, in order, onto any summary: one topk_add per element
CREATE FUNCTION vocab_add_all(summary topksketch, vals int[], counts bigint[]) RETURNS topksketch
LANGUAGE plpgsql AS $$
BEGIN
	FOR j IN 1 .. coalesce(array_length(vals, 1), 0) LOOP
		summary := topk_add(summary, vals[j], counts[j]);
	END LOOP;
	RETURN summary;
END $$;

-- Summaries of the whole stream with 20 counters, built five ways:
--   agg       topk_agg, for comparison;
--   adds      topk_create, then one topk_add per row;
--   weighted  topk_create, then one topk_add per (value, i % 7) group, of its count;
--   mixed     rows 1..8000 by topk_agg, 8001..14000 added one by one onto
--             that result, 14001..20000 added by weight onto a topk_create,
--             the two merged;
--   parts     three thirds by topk_add, topk_agg and weighted topk_add, merged
--             with + in one order and with topk_merge_agg.
CREATE TABLE vocab_summaries AS
SELECT 'agg' AS path, topk_agg(v, 20) AS s FROM vocab_stream
UNION ALL
SELECT 'adds', vocab_add_all(topk_create(20), array_agg(v ORDER BY i), array_agg(1::bigint ORDER BY i))
FROM vocab_stream
UNION ALL
SELECT 'weighted', vocab_add_all(topk_create(20), array_agg(v ORDER BY g, v), array_agg(n ORDER BY g, v))
FROM (SELECT v, i % 7 AS g, count(*) AS n FROM vocab_stream GROUP BY 1, 2) w
UNION ALL
SELECT 'mixed',
       vocab_add_all((SELECT topk_agg(v, 20) FROM vocab_stream WHERE i <= 8000),
                     (SELECT array_agg(v ORDER BY i) FROM vocab_stream WHERE i BETWEEN 8001 AND 14000),
                     (SELECT array_agg(1::bigint) FROM vocab_stream WHERE i BETWEEN 8001 AND 14000))
       + (SELECT vocab_add_all(topk_create(20), array_agg(v ORDER BY v), array_agg(n ORDER BY v))
          FROM (SELECT v, count(*) AS n FROM vocab_stream WHERE i > 14000 GROUP BY v) w);
CREATE TABLE vocab_thirds AS
SELECT 1 AS part, vocab_add_all(topk_create(20), array_agg(v ORDER BY i), array_agg(1::bigint ORDER BY i)) AS s
FROM vocab_stream WHERE i % 3 = 0
UNION ALL
SELECT 2, topk_agg(v, 20) FROM vocab_stream WHERE i % 3 = 1
UNION ALL
SELECT 3, vocab_add_all(topk_create(20), array_agg(v ORDER BY v), array_agg(n ORDER BY v))
FROM (SELECT v, count(*) AS n FROM vocab_stream WHERE i % 3 = 2 GROUP BY v) w;
INSERT INTO vocab_summaries
SELECT 'parts +', (SELECT s FROM vocab_thirds WHERE part = 3) + (SELECT s FROM vocab_thirds WHERE part = 1)
                  + (SELECT s FROM vocab_thirds WHERE part = 2)
UNION ALL
SELECT 'parts merge_agg', topk_merge_agg(s ORDER BY part) FROM vocab_thirds;

-- The guarantees, for every value 0..199 (listed or not): topk_bounds holds
-- the exact count, every value above N/(c + 1) is listed, topk_estimate is
-- the lower bound, and N counts every row.
SELECT path, topk_total(s) AS total, count(*) AS values_checked,
       count(*) FILTER (WHERE b.lower_bound <= e.n AND e.n <= b.upper_bound) AS within_bounds,
       count(*) FILTER (WHERE e.n > topk_total(s) / 21.0) AS heavy,
       count(*) FILTER (WHERE e.n > topk_total(s) / 21.0 AND b.lower_bound > 0) AS heavy_listed,
       count(*) FILTER (WHERE topk_estimate(s, e.v) = b.lower_bound) AS estimate_is_lower_bound
FROM vocab_summaries, vocab_exact e, topk_bounds(s, e.v) b
GROUP BY path, s ORDER BY path;
-- listed values: the same count and bounds as topk_items; unlisted ones: 0
-- and max_error (topk_info), and 0 from topk_estimate
SELECT path, count(*) FILTER (WHERE t.value IS NOT NULL) AS listed,
       count(*) FILTER (WHERE t.value IS NOT NULL AND topk_estimate(s, e.v) = t.count
                          AND (b.lower_bound, b.upper_bound) = (t.lower_bound, t.upper_bound)) AS as_items,
       count(*) FILTER (WHERE t.value IS NULL) AS unlisted,
       count(*) FILTER (WHERE t.value IS NULL AND topk_estimate(s, e.v) = 0
                          AND (b.lower_bound, b.upper_bound) = (0, (topk_info(s)).max_error)) AS zero_to_max_error
FROM vocab_summaries CROSS JOIN vocab_exact e
     CROSS JOIN LATERAL topk_bounds(s, e.v) b
     LEFT JOIN LATERAL topk_items(s) t ON t.value = e.v::text
GROUP BY path, s ORDER BY path;
-- some unlisted values have a positive max_error above them, so the check
-- above is not only about zeros
SELECT path, (topk_info(s)).max_error > 0 AS has_error, (topk_info(s)).entries AS entries
FROM vocab_summaries ORDER BY path;
-- one add per row counts the heaviest value exactly, as topk_agg does
SELECT (SELECT topk_estimate(s, 0) FROM vocab_summaries WHERE path = 'adds') AS adds_zero,
       (SELECT topk_estimate(s, 0) FROM vocab_summaries WHERE path = 'agg') AS agg_zero,
       (SELECT n FROM vocab_exact WHERE v = 0) AS exact_zero;

-- ---- topk_add: weights, texts, keys, NULLs, zero ----
-- a weight of w counts as w adds in a row when the value is listed
SELECT topk_add(topk_add(topk_add(topk_add(topk_create(3), 7), 7), 7), 7)
       = topk_add(topk_add(topk_create(3), 7), 7, 3) AS weight_is_repeats;
-- values are their canonical bytes: 1.5 and 1.50 are one numeric, whose
-- text is the one first counted
SELECT t.* FROM topk_items(topk_add(topk_add(topk_create(3), 1.50), 1.5, 2)) t;
SELECT topk_estimate(topk_add(topk_create(3), 1.50), 1.500) AS numeric_estimate,
       topk_estimate(topk_add(topk_create(3), 1::int2), 1::int8) AS integer_estimate;
-- untyped literals are text, on every function
SELECT t.* FROM topk_items(topk_add(topk_add(topk_create(3), 'alice'), 'bob', 4)) t;
SELECT topk_estimate(s, 'bob') AS bob, b.*
FROM (SELECT topk_add(topk_add(topk_create(3), 'alice'), 'bob', 4) AS s) x, topk_bounds(s, 'bob') b;
-- NULL value or count: the summary unchanged; NULL summary: NULL
SELECT topk_add(s, NULL::int) = s AS null_value, topk_add(s, 1, NULL) = s AS null_count,
       topk_add(NULL::topksketch, 1) IS NULL AS null_summary,
       topk_estimate(NULL, 1) IS NULL AS null_estimate, topk_estimate(s, NULL::int) IS NULL AS null_probe,
       (topk_bounds(s, NULL::int)).upper_bound IS NULL AS null_bounds
FROM (SELECT topk_agg(x, 3) AS s FROM generate_series(1, 10) x) a;
-- a count of 0 changes nothing
SELECT topk_add(s, 99, 0) = s AS zero_count, topk_add(topk_create(3), 1, 0) = topk_create(3) AS zero_on_empty
FROM (SELECT topk_agg(x, 3) AS s FROM generate_series(1, 10) x) a;
-- an empty summary knows no value
SELECT topk_estimate(topk_create(3), 'x'), b.* FROM topk_bounds(topk_create(3), 42) b;

-- ---- topk_weighted_agg: a count per row, as cms_agg(value, count) ----
-- the fold of topk_add over the rows, in their order
SELECT topk_weighted_agg(v, n, 3 ORDER BY o) = topk_add(topk_add(topk_add(topk_create(3), 'a', 5), 'b', 2), 'c', 7)
       AS fold_of_adds
FROM (VALUES (1, 'a', 5), (2, 'b', 2), (3, 'c', 7)) r(o, v, n);
-- NULL values and NULL counts skipped; a count of 0 counts nothing, but the
-- group has a summary (of the value's family), as with cms_agg
SELECT topk_total(s) AS total, (topk_info(s)).entries, (topk_info(s)).family
FROM (SELECT topk_weighted_agg(v, n, 3) AS s
      FROM (VALUES (1, 4::bigint), (NULL, 5), (2, NULL), (3, 0)) r(v, n)) a;
SELECT i.total, i.entries, i.family, i.max_error
FROM topk_info((SELECT topk_weighted_agg(v, 0, 3) FROM (VALUES (1), (2)) r(v))) i;
SELECT topk_weighted_agg(v, n, 3) IS NULL AS only_nulls
FROM (VALUES (NULL::int, 1::bigint), (1, NULL)) r(v, n);
-- epsilon sizes it as topk_agg's does
SELECT (topk_info(topk_weighted_agg(x, 2, 3, 0.01))).counters FROM generate_series(1, 10) x;
-- errors: a negative count, a NULL k, k changing within a group, a value of another family
SELECT topk_weighted_agg(x, -1, 3) FROM generate_series(1, 2) x;
SELECT topk_weighted_agg(x, 1, NULL) FROM generate_series(1, 2) x;
SELECT topk_weighted_agg(x, 1, x::int) FROM generate_series(1, 2) x;
SELECT topk_weighted_agg_trans(NULL, 1, 1::bigint, 3);
-- typed overloads for Citus, one per type topk_agg has, each with a combine function
SELECT count(*) AS typed_overloads, bool_and(a.aggcombinefn <> 0) AS all_combine
FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
WHERE p.proname = 'topk_weighted_agg' AND NOT 'anyelement'::regtype = ANY (p.proargtypes);

-- ---- cmsketch: & is cms_intersect, cms_intersect_agg folds it ----
CREATE TABLE vocab_cms AS
SELECT x % 3 AS g, cms_agg(x % 50, 0.01, 0.01) AS s FROM generate_series(1, 3000) x GROUP BY 1;
SELECT a.g, b.g, a.s & b.s = cms_intersect(a.s, b.s) AS operator_is_function,
       a.s & b.s = b.s & a.s AS commutes
FROM vocab_cms a, vocab_cms b WHERE a.g <= b.g ORDER BY 1, 2;
SELECT cms_intersect_agg(s ORDER BY g) = (SELECT (a.s & b.s) & c.s FROM vocab_cms a, vocab_cms b, vocab_cms c
                                          WHERE a.g = 0 AND b.g = 1 AND c.g = 2) AS agg_is_fold,
       cms_intersect_agg(s ORDER BY g DESC) = cms_intersect_agg(s ORDER BY g) AS any_order,
       cms_total(cms_intersect_agg(s)) AS total
FROM vocab_cms;
SELECT cms_intersect_agg(s) IS NULL AS no_rows FROM vocab_cms WHERE false;
SELECT cms_intersect_agg(s) = (SELECT s FROM vocab_cms WHERE g = 1) AS nulls_skipped
FROM (SELECT s FROM vocab_cms WHERE g = 1 UNION ALL SELECT NULL) t;
-- its combine function, in a parallel plan: the serial answer
CREATE TABLE vocab_cms_many AS
SELECT x AS id, cms_add(cms_add(cms_create_dims(50, 3), x % 5, 10), x % 7, 5) AS s
FROM generate_series(1, 2000) x;
ANALYZE vocab_cms_many;
CREATE TABLE vocab_cms_serial AS SELECT cms_intersect_agg(s) AS s FROM vocab_cms_many;
RESET max_parallel_workers_per_gather;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
CREATE FUNCTION vocab_plan(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (COSTS OFF, FORMAT JSON) ' || query INTO plan;
	RETURN plan::text;
END $$;
SELECT vocab_plan('SELECT cms_intersect_agg(s) FROM vocab_cms_many') LIKE '%"Partial Mode": "Partial"%'
       AS partial_aggregate;
SELECT cms_intersect_agg(s) = (SELECT s FROM vocab_cms_serial) AS parallel_is_serial FROM vocab_cms_many;
RESET ALL;
SET max_parallel_workers_per_gather = 0;

-- ---- errors ----
\set VERBOSITY terse
SELECT q, vocab_try(q) FROM (VALUES
	('SELECT topk_create(0)'),
	('SELECT topk_create(1000001)'),
	('SELECT topk_create(10, 0)'),
	('SELECT topk_create(10, 1)'),
	('SELECT topk_add(topk_create(3), 1, -1)'),
	('SELECT topk_add(topk_create(3), 1, 9223372036854775807)'),
	('SELECT topk_add(topk_add(topk_create(3), 1, 9223372036854775807), 2)'),
	('SELECT topk_add(topk_add(topk_create(3), 1), ''a''::text)'),
	('SELECT topk_add(topk_add(topk_create(3), 1), ''a''::text, 0)'),
	('SELECT topk_estimate(topk_add(topk_create(3), 1), ''a'')'),
	('SELECT topk_bounds(topk_add(topk_create(3), 1), 1.5)'),
	-- mismatched operands: 22000, as for every merge
	('SELECT topk_create(3) + topk_create(4)'),
	('SELECT topk_add(topk_create(3), 1) + topk_agg(x, 4) FROM generate_series(1, 5) x'),
	('SELECT topk_add(topk_create(3), 1) + topk_add(topk_create(3), ''a'')'),
	('SELECT cms_create(0.01, 0.01) & cms_create(0.001, 0.001)'),
	('SELECT cms_add(cms_create(), 1) & cms_add(cms_create(), ''a'')'),
	('SELECT cms_intersect_agg(s) FROM (VALUES (cms_create(0.01, 0.01)), (cms_create(0.001, 0.001))) t(s)')
) t(q);
\set VERBOSITY default

-- ---- what was declared ----
SELECT p.oid::regprocedure AS function, p.provolatile AS volatility, p.proisstrict AS strict,
       p.proparallel AS parallel
FROM pg_proc p
WHERE p.proname IN ('topk_create', 'topk_add', 'topk_estimate', 'topk_bounds', 'cms_intersect_agg')
ORDER BY p.oid::regprocedure::text;
SELECT o.oid::regoperator AS operator, o.oprcode AS function, o.oprcom::regoperator AS commutator
FROM pg_operator o WHERE o.oprname = '&' AND o.oprleft = 'cmsketch'::regtype;

DROP TABLE vocab_stream, vocab_exact, vocab_summaries, vocab_thirds, vocab_cms, vocab_cms_many,
	vocab_cms_serial;
DROP FUNCTION vocab_try(text), vocab_add_all(topksketch, int[], bigint[]), vocab_plan(text);
