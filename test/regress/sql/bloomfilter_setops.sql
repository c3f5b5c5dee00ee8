-- Union and intersection of filters, their aggregates, and equality.
CREATE EXTENSION IF NOT EXISTS bloomsketch;

CREATE TABLE so_events AS
SELECT 1 + (i % 10) AS day, ((i::bigint * 2654435761) % 100000) AS user_id
FROM generate_series(1, 200000) i;
INSERT INTO so_events VALUES (3, NULL);

CREATE TABLE so_daily AS
SELECT day, bloom_agg(user_id, 100000) AS f FROM so_events GROUP BY day;
INSERT INTO so_daily VALUES (11, NULL);

-- The union of per-day filters is byte-identical to the filter of all rows,
-- whether by the aggregate, the function or the operator.
SELECT (SELECT bloom_union_agg(f) FROM so_daily) = (SELECT bloom_agg(user_id, 100000) FROM so_events) AS union_agg_identical,
       (SELECT bloom_union(a.f, b.f) FROM so_daily a, so_daily b WHERE a.day = 1 AND b.day = 2) =
       (SELECT bloom_agg(user_id, 100000) FROM so_events WHERE day IN (1, 2)) AS union_identical,
       (SELECT a.f | b.f FROM so_daily a, so_daily b WHERE a.day = 1 AND b.day = 2) =
       (SELECT bloom_union(a.f, b.f) FROM so_daily a, so_daily b WHERE a.day = 1 AND b.day = 2) AS operator_identical;
-- NULL filters are skipped; no rows give NULL.
SELECT bloom_union_agg(f) IS NULL AS no_rows_union, bloom_intersect_agg(f) IS NULL AS no_rows_intersect
FROM so_daily WHERE false;
SELECT bloom_union_agg(f) IS NULL AS only_null FROM so_daily WHERE day = 11;

-- An intersection answers yes for every value in both sets.
CREATE TABLE so_pair AS
SELECT (SELECT bloom_agg(i, 20000) FROM generate_series(1, 10000) i) AS a,
       (SELECT bloom_agg(i, 20000) FROM generate_series(5001, 15000) i) AS b;
SELECT count(*) FILTER (WHERE NOT bloom_contains(a & b, i)) AS false_negatives,
       count(*) FILTER (WHERE bloom_contains(bloom_intersect(a, b), i)) AS found
FROM so_pair, generate_series(5001, 10000) i;
-- Outside the overlap it says yes far more rarely than either operand.
SELECT count(*) FILTER (WHERE bloom_contains(a & b, i)) AS intersect_yes,
       count(*) FILTER (WHERE bloom_contains(a, i)) AS a_yes
FROM so_pair, generate_series(10001, 15000) i;
SELECT (bloom_info(a & b)).items_added AS intersect_items, (bloom_info(a | b)).items_added AS union_items
FROM so_pair;
-- The intersection aggregate equals folding the function.
SELECT (SELECT bloom_intersect_agg(f) FROM so_daily WHERE day <= 3) =
       (SELECT bloom_intersect(bloom_intersect(a.f, b.f), c.f) FROM so_daily a, so_daily b, so_daily c
        WHERE a.day = 1 AND b.day = 2 AND c.day = 3) AS intersect_agg_identical;

-- Large filters (4 MB and more, TOASTed in the table): the aggregates give the
-- bytes of folding the functions, with NULLs before, between and after them
-- skipped, in any order, and as a running window.
CREATE TABLE so_large AS
SELECT n, CASE WHEN n % 2 = 1 THEN NULL
               ELSE (SELECT bloom_agg(i, 4000000) FROM generate_series(n * 20000, n * 20000 + 59999) i) END AS f
FROM generate_series(1, 7) n;
SELECT count(*) FILTER (WHERE (bloom_info(f)).bytes > 4 * 1024 * 1024) AS large_filters,
       count(*) FILTER (WHERE f IS NULL) AS nulls
FROM so_large;
SELECT bloom_union_agg(f ORDER BY n) = (SELECT a.f | b.f | c.f FROM so_large a, so_large b, so_large c
                                       WHERE a.n = 2 AND b.n = 4 AND c.n = 6) AS union_identical,
       bloom_intersect_agg(f ORDER BY n) = (SELECT a.f & b.f & c.f FROM so_large a, so_large b, so_large c
                                           WHERE a.n = 2 AND b.n = 4 AND c.n = 6) AS intersect_identical,
       bloom_union_agg(f ORDER BY n DESC) = bloom_union_agg(f ORDER BY n) AS order_free
FROM so_large;
SELECT n, bloom_union_agg(f) OVER w IS NOT DISTINCT FROM (SELECT bloom_union_agg(p.f ORDER BY p.n) FROM so_large p WHERE p.n <= s.n)
       AS running_union_identical
FROM so_large s WINDOW w AS (ORDER BY n) ORDER BY n;

-- Operands must agree on every parameter: 22000, naming both values.
SELECT bloom_create(100) | bloom_create(200);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_add(bloom_create(100, 0.01), 1) & bloom_add(bloom_create(100, 0.001), 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_create(100, 0.01, 1) | bloom_create(100, 0.01, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_add(bloom_create(100), 1) | bloom_add(bloom_create(100), 'one');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_union_agg(f) FROM (VALUES (bloom_create(100)), (bloom_create(1000))) v(f);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- An empty filter (no family yet) combines with any family.
SELECT (bloom_create(100) | bloom_add(bloom_create(100), 'one')) = bloom_add(bloom_create(100), 'one') AS empty_adopts_family;

-- Parallel union aggregation gives the same bytes as the serial plan.
CREATE TABLE so_many AS
SELECT g, bloom_agg(i, 50000) AS f FROM generate_series(1, 400000) i, LATERAL (SELECT i % 200 AS g) s GROUP BY g;
ANALYZE so_many;
SET max_parallel_workers_per_gather = 0;
CREATE TABLE so_serial AS SELECT bloom_union_agg(f) AS u, bloom_intersect_agg(f) AS x FROM so_many;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
CREATE FUNCTION so_plan_text(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON) ' || query INTO plan;
	RETURN plan::text;
END $$;
\set q 'SELECT bloom_union_agg(f) = (SELECT u FROM so_serial) AS union_identical, bloom_intersect_agg(f) = (SELECT x FROM so_serial) AS intersect_identical FROM so_many'
SELECT so_plan_text(:'q') LIKE '%"Partial Mode": "Partial"%' AS partial_aggregate,
       so_plan_text(:'q') ~ '"Workers Launched": [1-9]' AS workers_launched;
:q;
-- ... and equals the filter of all 400,000 rows built directly.
SELECT (SELECT u FROM so_serial) = (SELECT bloom_agg(i, 50000) FROM generate_series(1, 400000) i) AS equals_direct;
RESET ALL;

-- Equality, GROUP BY, DISTINCT, UNION and ORDER BY over filter columns.
CREATE TABLE so_dupes AS
SELECT d.day % 3 AS bucket, d.f FROM so_daily d, generate_series(1, 2) WHERE d.f IS NOT NULL;
SELECT count(*) AS rows_, count(DISTINCT f) AS distinct_filters FROM so_dupes;
SELECT count(*) AS groups FROM (SELECT f FROM so_dupes GROUP BY f) s;
SET enable_hashagg = off;
SELECT count(*) AS sorted_groups FROM (SELECT f FROM so_dupes GROUP BY f) s;
RESET enable_hashagg;
SELECT count(*) AS union_rows FROM (SELECT f FROM so_dupes UNION SELECT f FROM so_daily WHERE f IS NOT NULL) s;
SELECT count(*) AS hash_join_matches FROM so_dupes a JOIN so_daily b ON a.f = b.f;
SELECT a.f = b.f AS eq, a.f <> b.f AS ne, (a.f < b.f) <> (a.f > b.f) AS ordered,
       bloomfilter_cmp(a.f, b.f) = -bloomfilter_cmp(b.f, a.f) AS antisymmetric
FROM so_daily a, so_daily b WHERE a.day = 1 AND b.day = 2;
SELECT bloomfilter_hash(f) = bloomfilter_hash(f::text::bloomfilter) AS hash_stable,
       bloomfilter_hash_extended(f, 7) <> bloomfilter_hash_extended(f, 8) AS seed_matters
FROM so_daily WHERE day = 1;
