-- bloom_agg: per-group filters, NULLs, parameter checks, and parallel plans
-- that give byte-identical results.
CREATE EXTENSION IF NOT EXISTS bloomsketch;

CREATE TABLE agg_events (day int, user_id bigint, name text);
INSERT INTO agg_events
SELECT 1 + i % 7, (i * 7919) % 5000, CASE WHEN i % 10 = 0 THEN NULL ELSE 'u' || (i % 3000) END
FROM generate_series(1, 20000) i;
INSERT INTO agg_events VALUES (1, NULL, 'null id'), (8, NULL, NULL);

-- One filter per group; items_added counts the non-NULL values.
SELECT day, b.items_added, count_non_null, b.family, b.bits, b.hashes
FROM (SELECT day, bloom_agg(user_id, 5000) AS f, count(user_id) AS count_non_null
      FROM agg_events GROUP BY day) s, LATERAL bloom_info(f) b
ORDER BY day;
-- A group with only NULL values gives NULL, as sum() does; no rows give NULL.
SELECT day, bloom_agg(user_id, 5000) IS NULL AS is_null FROM agg_events WHERE day = 8 GROUP BY day;
SELECT bloom_agg(user_id, 5000) IS NULL AS no_rows FROM agg_events WHERE false;
-- Every value of each day is found in that day's filter.
SELECT count(*) FILTER (WHERE NOT bloom_contains(f, e.user_id)) AS false_negatives
FROM agg_events e JOIN (SELECT day, bloom_agg(user_id, 5000) f FROM agg_events GROUP BY day) d USING (day)
WHERE e.user_id IS NOT NULL;
-- The three-argument form with the default rate equals the two-argument form.
SELECT (SELECT bloom_agg(user_id, 5000) FROM agg_events)::bytea =
       (SELECT bloom_agg(user_id, 5000, 0.01) FROM agg_events)::bytea AS same_bytes;
-- The aggregate equals adding the values one by one.
WITH RECURSIVE vals AS (SELECT row_number() OVER (ORDER BY user_id) AS n, user_id FROM agg_events WHERE day = 3),
steps AS (
	SELECT 0::bigint AS n, bloom_create(5000, 0.01) AS f
	UNION ALL
	SELECT s.n + 1, bloom_add(s.f, v.user_id) FROM steps s JOIN vals v ON v.n = s.n + 1
)
SELECT (SELECT f FROM steps ORDER BY n DESC LIMIT 1)::bytea =
       (SELECT bloom_agg(user_id, 5000) FROM agg_events WHERE day = 3)::bytea AS equals_bloom_add;

CREATE FUNCTION agg_plan(query text) RETURNS json LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON) ' || query INTO plan;
	RETURN plan;
END $$;

-- A large state (1 MB and more) pipelines: the transition function
-- prefetches a value's lines and sets its bits a few rows later, and the
-- state flattens itself, setting the rest, whenever its bytes are needed.
-- Small states queue their rows' bits at the call site instead, across
-- groups, where our final function is sure to run.  For both, every group
-- size around the pipeline's depth, a rescanned aggregate (correlated
-- subquery), interleaved hash groups, spilled hash groups and grouping sets
-- give exactly the union of one-value filters.
SELECT (bloom_info(bloom_create(1000000))).bytes >= 1024 * 1024 AS large_is_pipelined,
       (bloom_info(bloom_create(5000))).bytes < 1024 * 1024 AS small_is_not;
-- bloom_agg of 1..n equals the union of one-value filters, for n = 1..sizes
CREATE FUNCTION agg_sizes_exact(capacity bigint, sizes int) RETURNS boolean
LANGUAGE sql AS $$
	SELECT bool_and((SELECT bloom_agg(i, capacity) FROM generate_series(1, n) i) =
	                (SELECT bloom_union_agg(bloom_add(bloom_create(capacity), i)) FROM generate_series(1, n) i))
	FROM generate_series(1, sizes) n
$$;
-- the same per group, rows 1..total in groups i % groups (hashed: enable_sort off)
CREATE FUNCTION agg_groups_exact(capacity bigint, groups int, total int, OUT groups_seen bigint, OUT exact boolean)
LANGUAGE sql AS $$
	SELECT count(*), bool_and(a.f = b.f)
	FROM (SELECT i % groups AS g, bloom_agg(i, capacity) AS f FROM generate_series(1, total) i GROUP BY 1) a
	JOIN (SELECT i % groups AS g, bloom_union_agg(bloom_add(bloom_create(capacity), i)) AS f
	      FROM generate_series(1, total) i GROUP BY 1) b USING (g)
$$;
-- the same for the grouping sets (i % 3), (i % 5) and ()
CREATE FUNCTION agg_grouping_sets_exact(capacity bigint, total int, OUT sets bigint, OUT exact boolean)
LANGUAGE sql AS $$
	SELECT count(*), bool_and(s.f = d.f)
	FROM (SELECT i % 3 AS a, i % 5 AS b, bloom_agg(i, capacity) AS f FROM generate_series(1, total) i
	      GROUP BY GROUPING SETS ((1), (2), ())) s
	JOIN LATERAL (SELECT bloom_union_agg(bloom_add(bloom_create(capacity), i)) AS f FROM generate_series(1, total) i
	              WHERE (s.a IS NULL OR i % 3 = s.a) AND (s.b IS NULL OR i % 5 = s.b)) d ON true
$$;
SELECT agg_sizes_exact(1000000, 20) AS large_sizes_exact, agg_sizes_exact(100, 20) AS small_sizes_exact;
-- A large blocked state has its blocks on cache lines (one line fetched per
-- value); the bits are those of the one-value filters all the same.
SELECT (SELECT bloom_agg(i, 1000000, 0.01, 'blocked') FROM generate_series(1, 50) i) =
       (SELECT bloom_union_agg(bloom_add(bloom_create(1000000, 0.01, 0, 'blocked'), i))
        FROM generate_series(1, 50) i) AS large_blocked_exact;
-- With constant parameters a large blocked state's rows take the fast path
-- (on AVX-512F, a loop with the block's vector mask inlined); an argument
-- that is not a constant takes the checked path.  Same bytes.
SELECT (SELECT bloom_agg(i, 1000000, 0.01, 'blocked') FROM generate_series(1, 20000) i) =
       (SELECT bloom_agg(i, i * 0 + 1000000, 0.01, 'blocked') FROM generate_series(1, 20000) i)
       AS blocked_fast_path_exact;
-- A small (flat) state's rows take a fast path too, from its second row on,
-- until the context that holds it is reset; the same bytes as the checked
-- path, for both schemes, for one group and for consecutive groups of a
-- sorted aggregation (whose context is reset between groups), also when a
-- user aggregate starts every group from an initial filter.
SELECT (SELECT bloom_agg(i, 1000, 0.01) FROM generate_series(1, 20000) i) =
       (SELECT bloom_agg(i, i * 0 + 1000, 0.01) FROM generate_series(1, 20000) i)
       AS small_fast_path_exact,
       (SELECT bloom_agg(i, 1000, 0.01, 'blocked') FROM generate_series(1, 20000) i) =
       (SELECT bloom_agg(i, i * 0 + 1000, 0.01, 'blocked') FROM generate_series(1, 20000) i)
       AS small_blocked_fast_path_exact;
SET enable_hashagg = off;
SELECT agg_plan('SELECT i / 500, bloom_agg(i, 1000, 0.01) FROM generate_series(1, 5000) i GROUP BY 1')::text
       ~ '"Strategy": "Sorted"' AS sorted_groups;
SELECT count(*) AS groups, bool_and(a.f = b.f) AS sorted_groups_exact
FROM (SELECT i / 500 AS g, bloom_agg(i, 1000, 0.01) AS f FROM generate_series(1, 5000) i GROUP BY 1) a
JOIN (SELECT i / 500 AS g, bloom_agg(i, i * 0 + 1000, 0.01) AS f FROM generate_series(1, 5000) i GROUP BY 1) b
USING (g);
DO $$ BEGIN
	EXECUTE format('CREATE AGGREGATE bloom_agg_seeded(anyelement, bigint, float8) (
		SFUNC = bloom_agg_trans, STYPE = bloomfilter, FINALFUNC = bloom_agg_final, INITCOND = %L)',
		bloom_create(1000, 0.01)::text);
END $$;
SELECT count(*) AS groups, bool_and(a.f = b.f) AS seeded_groups_exact
FROM (SELECT i / 500 AS g, bloom_agg_seeded(i, 1000, 0.01) AS f FROM generate_series(1, 5000) i GROUP BY 1) a
JOIN (SELECT i / 500 AS g, bloom_agg(i, 1000, 0.01) AS f FROM generate_series(1, 5000) i GROUP BY 1) b
USING (g);
DROP AGGREGATE bloom_agg_seeded(anyelement, bigint, float8);
RESET enable_hashagg;
SET enable_sort = off;
SELECT 'large' AS states, * FROM agg_groups_exact(1000000, 5, 300)
UNION ALL SELECT 'small', * FROM agg_groups_exact(1000, 97, 20000);
-- ... also when the hash table spills to disk and is rebuilt in batches.
SET work_mem = '2MB';
SELECT * FROM agg_groups_exact(1000000, 8, 320);
SELECT agg_plan('SELECT i % 8, bloom_agg(i, 1000000) FROM generate_series(1, 320) i GROUP BY 1')::text ~ '"HashAgg Batches": ([2-9]|[1-9][0-9])' AS spilled;
SET work_mem = '64kB';
SELECT * FROM agg_groups_exact(1000, 2000, 20000);
SELECT agg_plan('SELECT i % 2000, bloom_agg(i, 1000) FROM generate_series(1, 20000) i GROUP BY 1')::text ~ '"HashAgg Batches": ([2-9]|[1-9][0-9])' AS spilled;
RESET work_mem;
RESET enable_sort;
SELECT 'large' AS states, * FROM agg_grouping_sets_exact(1000000, 300)
UNION ALL SELECT 'small', * FROM agg_grouping_sets_exact(5000, 3000);
-- Two aggregates sharing one state, one of them without our final function:
-- nothing waits at the call site then.
CREATE AGGREGATE bloom_agg_unfinished(anyelement, bigint, float8) (
	SFUNC = bloom_agg_trans, STYPE = bloomfilter);
SELECT u = b AS shared_state_identical, (bloom_info(u)).items_added AS items
FROM (SELECT bloom_agg_unfinished(i, 1000, 0.01) AS u, bloom_agg(i, 1000, 0.01) AS b
      FROM generate_series(1, 503) i) s;
SELECT bool_and(f @> i) AS small_unfinished_finds_all
FROM (SELECT bloom_agg_unfinished(i, 1000, 0.01) AS f FROM generate_series(1, 503) i) s,
	generate_series(1, 503) i;
-- Without our final function (as a partial aggregation or a distributed
-- engine's worker uses the transition function), a large state that comes
-- out, and its text form, still hold every value.
SELECT u = b AS unfinished_identical, u::text::bloomfilter = b AS via_text_identical,
	(bloom_info(u)).items_added AS items
FROM (SELECT bloom_agg_unfinished(i, 1000000, 0.01) AS u, bloom_agg(i, 1000000, 0.01) AS b
      FROM generate_series(1, 1003) i) s;
SELECT bool_and(f @> i) AS unfinished_finds_all
FROM (SELECT bloom_agg_unfinished(i, 1000000, 0.01) AS f FROM generate_series(1, 1003) i) s,
	generate_series(1, 1003) i;
DROP AGGREGATE bloom_agg_unfinished(anyelement, bigint, float8);

-- As a window function, each row sees the filter of the rows so far.
SELECT day, (bloom_info(bloom_agg(user_id, 100) OVER (ORDER BY day))).items_added
FROM (SELECT DISTINCT ON (day) day, user_id FROM agg_events ORDER BY day, user_id) s
ORDER BY day;

-- Parameters must be constants: a change within a group is an error.
SELECT bloom_agg(user_id, CASE WHEN user_id < 2500 THEN 5000 ELSE 6000 END) FROM agg_events;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_agg(user_id, 5000, CASE WHEN user_id < 2500 THEN 0.01 ELSE 0.02 END) FROM agg_events;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_agg(user_id, NULL) FROM agg_events;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_agg(user_id, 0) FROM agg_events;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_agg(user_id, 100, 1.5) FROM agg_events;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- Different parameters per group are fine.
SELECT day, (bloom_info(bloom_agg(user_id, day * 1000))).bits
FROM agg_events WHERE day <= 3 GROUP BY day ORDER BY day;

-- Partial filters with different parameters cannot be combined: 22000
-- (bloom_union runs the same check as the aggregate's combine function).
SELECT bloom_union(bloom_create(100), bloom_create(1000));
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_union(bloom_create(100, 0.01, 1), bloom_create(100, 0.01, 2));
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_union(bloom_add(bloom_create(100), 1), bloom_add(bloom_create(100), 'x'::text));
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- The transition function is for the aggregate only.
SELECT bloom_agg_trans(NULL, 1, 100);
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- Parallel aggregation: the plan has a Partial Aggregate, workers run, and
-- the result is byte-identical to the serial plan.
CREATE TABLE agg_big AS
SELECT i::bigint AS id, md5(i::text) AS s, i % 4 AS g FROM generate_series(1, 300000) i;
ANALYZE agg_big;

CREATE FUNCTION agg_is_parallel(query text) RETURNS TABLE (partial_aggregate boolean, workers_launched boolean)
LANGUAGE sql AS $$
	SELECT agg_plan(query)::text LIKE '%"Partial Mode": "Partial"%',
	       agg_plan(query)::text ~ '"Workers Launched": [1-9]'
$$;

SET max_parallel_workers_per_gather = 0;
CREATE TABLE agg_serial AS
SELECT 'all ids' AS what, NULL::int AS g, bloom_agg(id, 300000) AS f FROM agg_big
UNION ALL SELECT 'all text', NULL, bloom_agg(s, 300000, 0.001) FROM agg_big
UNION ALL SELECT 'per group', g, bloom_agg(id, 100000) FROM agg_big GROUP BY g
-- about 6 MB: a pipelined state on huge pages
UNION ALL SELECT 'large', NULL, bloom_agg(id, 5000000) FROM agg_big;
-- The plain aggregate (one flush, by the final function) and the window
-- aggregate (flushed for every row it outputs) give the same large filter.
SELECT (bloom_info(a.f)).bytes > 4 * 1024 * 1024 AS large,
	(SELECT bloom_agg(id, 5000000) OVER () FROM agg_big LIMIT 1)::bytea = a.f::bytea AS window_identical,
	(SELECT bool_and(a.f @> id) FROM agg_big) AS all_members_found
FROM agg_serial a WHERE what = 'large';

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
-- Each query below is checked for a parallel plan, then run with it.
\set q1 'SELECT bloom_agg(id, 300000)::bytea = (SELECT f::bytea FROM agg_serial WHERE what = ''all ids'') AS identical FROM agg_big'
\set q2 'SELECT bloom_agg(s, 300000, 0.001)::bytea = (SELECT f::bytea FROM agg_serial WHERE what = ''all text'') AS identical FROM agg_big'
\set q3 'SELECT p.g, p.f::bytea = a.f::bytea AS identical FROM (SELECT g, bloom_agg(id, 100000) AS f FROM agg_big GROUP BY g) p JOIN agg_serial a ON a.what = ''per group'' AND a.g = p.g ORDER BY p.g'
SELECT * FROM agg_is_parallel(:'q1');
:q1;
SELECT * FROM agg_is_parallel(:'q2');
:q2;
SELECT * FROM agg_is_parallel(:'q3');
:q3;
\set q4 'SELECT bloom_agg(id, 5000000)::bytea = (SELECT f::bytea FROM agg_serial WHERE what = ''large'') AS identical FROM agg_big'
SELECT * FROM agg_is_parallel(:'q4');
:q4;
RESET ALL;

-- Every aggregate declares the size of a typical state for the planner's
-- hash-aggregation memory estimates, and it is the size of the real thing.
-- (bloom_agg, bloom_fit_agg, cms_agg and topk_agg have one overload per arity
-- for anyelement and for each of 17 column types.)  bloom_fit_agg's typical
-- state is a list of 1,024 distinct hashes, 16 bytes each after 56 of header,
-- rate and ceiling.  A topk_agg(value, 100) state, once full, is a table of
-- 200 slots of 72 bytes, an index of 512 slot numbers and 200 words of
-- scratch, with the state's header: 18 kB (src/core/topk/bs_topk_table.h).
SELECT p.proname, a.aggtransspace,
	bool_and(a.aggtransspace = CASE WHEN p.proname = 'bloom_fit_agg' THEN 40 + 8 * (2 + 2 * 1024)
	                       WHEN p.proname LIKE 'bloom%' THEN (bloom_info(bloom_create(100000))).bytes
	                       WHEN p.proname LIKE 'topk%' THEN 18432
	                       ELSE (cms_info(cms_create())).bytes END) AS matches_typical_state,
	count(*) AS overloads
FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomsketch'
GROUP BY p.proname, a.aggtransspace
ORDER BY p.proname;
