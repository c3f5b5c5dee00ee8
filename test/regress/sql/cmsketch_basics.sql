-- cmsketch: creation, I/O, malformed input, counting, merging, aggregates
-- (serial and parallel), NULLs, errors with their SQLSTATEs, and equality.
CREATE EXTENSION IF NOT EXISTS bloomsketch;

-- Runs a statement and reports its SQLSTATE and message, or 'ok'.
CREATE FUNCTION cms_try(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE query;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- ---- sizes ----
-- Theorem 9.1: w = the smallest prime >= 2e/epsilon, d = ceil(ln(1/(epsilon (1 - 1/(2e^2))))),
-- copies = ceil(ln(1/delta) / ln(1/epsilon)) when delta < epsilon.
SELECT epsilon_in, delta_in, i.width, i.depth, i.copies, i.bytes,
       i.epsilon <= epsilon_in AS epsilon_ok, i.delta <= delta_in AS delta_ok
FROM (VALUES (0.001, 0.001), (0.01, 0.01), (0.01, 0.0001), (0.01, 0.00001), (0.1, 0.5)) v(epsilon_in, delta_in),
     LATERAL cms_info(cms_create(epsilon_in, delta_in)) i;
SELECT width, depth, copies, seed, family, total, bytes, format_version FROM cms_info(cms_create());
SELECT width, depth, copies, seed FROM cms_info(cms_create_dims(100, 4, -7));
SELECT width, depth, copies FROM cms_info(cms_create_dims(1, 1));
SELECT width, depth, copies FROM cms_info(cms_create_dims(13, 13));
SELECT q, cms_try(q) FROM (VALUES
	('SELECT cms_create(0)'),
	('SELECT cms_create(1)'),
	('SELECT cms_create(-0.5)'),
	('SELECT cms_create(''NaN'')'),
	('SELECT cms_create(0.01, 0)'),
	('SELECT cms_create(0.01, 1)'),
	('SELECT cms_create(1e-9)'),
	('SELECT cms_create(0.5, 1e-300)'),
	('SELECT cms_create(0.99, 1e-300)'),
	('SELECT cms_create_dims(0, 1)'),
	('SELECT cms_create_dims(10, 0)'),
	('SELECT cms_create_dims(10, 12)'),
	('SELECT cms_create_dims(100000000, 100)')) t(q);

-- ---- text and binary forms ----
CREATE TABLE cms_small AS SELECT cms_add(cms_add(cms_create_dims(5, 2), 42), 7, 3) AS s;
SELECT s FROM cms_small;
SELECT s::text::cmsketch::text = s::text AS text_identity,
       s::bytea::cmsketch = s AS bytea_round_trip,
       length(s::bytea) AS serialized_bytes,
       s::bytea::cmsketch::text = s::text AS bytea_text_identity
FROM cms_small;
SELECT encode(s::bytea, 'hex') FROM cms_small;
-- an empty default-sized sketch survives both ways
SELECT cms_create()::text::cmsketch = cms_create() AS empty_text,
       cms_create()::bytea::cmsketch = cms_create() AS empty_bytea;

-- ---- malformed input ----
-- Little-endian field writers for building bad headers.
CREATE FUNCTION cms_put_le(b bytea, offset_ int, width int, v numeric) RETURNS bytea LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN 0 .. width - 1 LOOP
		b := set_byte(b, offset_ + i, (v % 256)::int);
		v := div(v, 256);
	END LOOP;
	RETURN b;
END $$;
CREATE FUNCTION cms_try_bytea(input bytea) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	PERFORM input::cmsketch;
	RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
CREATE FUNCTION cms_try_text(input text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	PERFORM input::cmsketch;
	RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

SELECT name, cms_try_bytea(input) AS result
FROM cms_small, LATERAL (VALUES
	('valid', s::bytea),
	('empty', ''::bytea),
	('truncated header', substring(s::bytea FROM 1 FOR 20)),
	('truncated counters', substring(s::bytea FROM 1 FOR 100)),
	('trailing byte', s::bytea || '\x00'::bytea),
	('version 0', cms_put_le(s::bytea, 0, 1, 0)),
	('version 3', cms_put_le(s::bytea, 0, 1, 3)),
	('unknown family', cms_put_le(s::bytea, 1, 1, 200)),
	('reserved set', cms_put_le(s::bytea, 2, 2, 1)),
	('width 6 (not prime)', cms_put_le(s::bytea, 8, 4, 6)),
	('width 0', cms_put_le(s::bytea, 8, 4, 0)),
	('depth 0', cms_put_le(s::bytea, 12, 2, 0)),
	('depth 3', cms_put_le(s::bytea, 12, 2, 3)),
	('copies 0', cms_put_le(s::bytea, 14, 2, 0)),
	('huge width', cms_put_le(s::bytea, 8, 4, 4294967291)),
	('total too small', cms_put_le(s::bytea, 24, 8, 3)),
	('total too large', cms_put_le(s::bytea, 24, 8, 5)),
	-- total is the smallest row sum, so raising one counter of one row is valid
	('one counter raised', cms_put_le(s::bytea, 32, 8, 99)),
	('both rows raised', cms_put_le(cms_put_le(s::bytea, 32, 8, 99), 72, 8, 99))
) t(name, input);

SELECT name, cms_try_text(input) AS result
FROM cms_small, LATERAL (VALUES
	('valid', s::text),
	('empty', ''),
	('garbage', 'hello'),
	('bloomfilter text', bloom_create(10)::text),
	('version 3', replace(s::text, 'cms:v2:', 'cms:v3:')),
	('leading zero', replace(s::text, 'w=5', 'w=05')),
	('width 6', replace(s::text, 'w=5', 'w=6')),
	('total mismatch', replace(s::text, 'total=4', 'total=5')),
	('unknown family', replace(s::text, ':integer:', ':color:')),
	('truncated base64', left(s::text, -4)),
	('bad base64', left(s::text, -4) || '!!!!'),
	('trailing text', s::text || 'A')
) t(name, input);

-- ---- adding and estimating ----
-- Integers of every width are one family, as are text, varchar and bpchar.
WITH s AS (SELECT cms_add(cms_add(cms_add(cms_create(), 5::int2, 7), 5::int4), 5::int8, 2) AS s)
SELECT cms_estimate(s, 5::int2) AS int2, cms_estimate(s, 5) AS int4, cms_estimate(s, 5::bigint) AS int8,
       cms_estimate(s, 6) AS other, cms_total(s) AS total, (cms_info(s)).family FROM s;
WITH s AS (SELECT cms_add(cms_add(cms_add(cms_create(), 'apple'), 'apple'::varchar, 4), 'apple'::char(8)) AS s)
SELECT cms_estimate(s, 'apple') AS untyped, cms_estimate(s, 'apple'::text) AS text,
       cms_estimate(s, 'apple'::varchar) AS varchar, cms_estimate(s, 'apple  '::char(10)) AS bpchar,
       cms_estimate(s, 'pear') AS pear, cms_total(s) FROM s;
-- count 0 adds nothing but sets the family; the default count is 1
SELECT cms_total(cms_add(cms_create(), 1, 0)), (cms_info(cms_add(cms_create(), 1, 0))).family;
-- an empty sketch estimates 0 for any family
SELECT cms_estimate(cms_create(), 1) AS int, cms_estimate(cms_create(), 'x') AS text;

-- A skewed (Zipf-like, density ~ 1/x) stream of 200,000 updates; the
-- reference sketches are built by serial plans.
SET max_parallel_workers_per_gather = 0;
SELECT setseed(0.42);
CREATE TABLE zipf AS
SELECT i AS id, floor(exp(random() * ln(20000)))::int AS v FROM generate_series(1, 200000) i;
CREATE TABLE zipf_true AS SELECT v, count(*) AS n FROM zipf GROUP BY v;
SELECT count(*) AS distinct_values, max(n) AS top_count, sum(n) AS total FROM zipf_true;
CREATE TABLE zipf_sketch AS
SELECT 'default' AS what, cms_agg(v) AS s FROM zipf
UNION ALL SELECT 'small', cms_agg(v, 0.01, 0.05) FROM zipf
UNION ALL SELECT 'tiny', cms_agg(v, 0.2, 0.2) FROM zipf;
-- never below the true count; above it by more than epsilon * total for at
-- most about a delta fraction of the values
CREATE TABLE zipf_params AS
SELECT what, i.width, i.depth, i.copies, i.total, i.epsilon * i.total AS slack
FROM zipf_sketch, LATERAL cms_info(s) i;
SELECT p.what, p.width, p.depth, p.copies, p.total,
       count(*) FILTER (WHERE e.estimate < t.n) AS under_estimates,
       count(*) FILTER (WHERE e.estimate > t.n) AS over_estimates,
       count(*) FILTER (WHERE e.estimate > t.n + p.slack) AS beyond_epsilon
FROM zipf_sketch k JOIN zipf_params p USING (what) CROSS JOIN zipf_true t,
     LATERAL (SELECT cms_estimate(k.s, t.v) AS estimate) e
GROUP BY p.what, p.width, p.depth, p.copies, p.total ORDER BY p.what;
-- values never added: estimates within epsilon * total, but for about a delta fraction
SELECT what, count(*) FILTER (WHERE cms_estimate(s, -x) > p.slack) AS absent_beyond_epsilon
FROM zipf_sketch JOIN zipf_params p USING (what), generate_series(1, 1000) x GROUP BY what ORDER BY what;
-- the weighted form equals adding row by row
SELECT cms_agg(v, n) = (SELECT s FROM zipf_sketch WHERE what = 'default') AS weighted_equals_rows,
       cms_agg(v, n, 0.01, 0.05) = (SELECT s FROM zipf_sketch WHERE what = 'small') AS weighted_small_equals_rows
FROM zipf_true;

-- ---- merging ----
CREATE TABLE zipf_halves AS
SELECT id <= 100000 AS first_half, cms_agg(v) AS s FROM zipf GROUP BY 1;
SELECT cms_merge(a.s, b.s)::bytea = w.s::bytea AS merge_identical,
       (a.s + b.s)::bytea = w.s::bytea AS plus_identical,
       (b.s + a.s) = w.s AS commutes,
       cms_total(a.s) + cms_total(b.s) = cms_total(w.s) AS totals_add
FROM zipf_halves a, zipf_halves b, zipf_sketch w
WHERE a.first_half AND NOT b.first_half AND w.what = 'default';
SELECT cms_merge_agg(s)::bytea = (SELECT s::bytea FROM zipf_sketch WHERE what = 'default') AS merge_agg_identical
FROM zipf_halves;
SELECT cms_merge_agg(s) IS NULL AS empty_is_null FROM zipf_halves WHERE false;
-- merging with an empty sketch of the same dimensions changes nothing
SELECT cms_merge(s, cms_create()) = s AS empty_merge, cms_merge(cms_create(), s) = s AS empty_merge_left
FROM zipf_sketch WHERE what = 'default';
-- intersection: estimates at least min of both, total the smallest row sum
WITH x AS MATERIALIZED (
	SELECT cms_intersect(a.s, b.s) AS i,
	       cms_total(cms_intersect(a.s, b.s)) <= least(cms_total(a.s), cms_total(b.s)) AS total_bounded,
	       cms_intersect(a.s, a.s) = a.s AS idempotent
	FROM zipf_halves a, zipf_halves b WHERE a.first_half AND NOT b.first_half),
h AS (SELECT v, count(*) FILTER (WHERE id <= 100000) AS a, count(*) FILTER (WHERE id > 100000) AS b
      FROM zipf GROUP BY v)
SELECT bool_and(total_bounded) AS total_bounded,
       bool_and(cms_estimate(i, h.v) >= least(h.a, h.b)) AS estimates_bounded,
       bool_and(idempotent) AS idempotent
FROM x, h;
-- inner product: never below the true sum of products (the self-join size here)
SELECT cms_inner_product(s, s) >= (SELECT sum(n * n) FROM zipf_true) AS self_join_bounded,
       cms_inner_product(s, s) - (SELECT sum(n * n) FROM zipf_true) <= (SELECT slack * total FROM zipf_params WHERE what = 'default') AS within_bound,
       cms_inner_product(cms_create(), s) AS with_empty
FROM zipf_sketch WHERE what = 'default';

-- ---- parallel aggregation: a Partial Aggregate, and the same bytes ----
CREATE FUNCTION cms_agg_plan(query text) RETURNS json LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON) ' || query INTO plan;
	RETURN plan;
END $$;
CREATE FUNCTION cms_agg_is_parallel(query text) RETURNS TABLE (partial_aggregate boolean, workers_launched boolean)
LANGUAGE sql AS $$
	SELECT cms_agg_plan(query)::text LIKE '%"Partial Mode": "Partial"%',
	       cms_agg_plan(query)::text ~ '"Workers Launched": [1-9]'
$$;
ANALYZE zipf;
RESET max_parallel_workers_per_gather;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
\set q1 'SELECT cms_agg(v)::bytea = (SELECT s::bytea FROM zipf_sketch WHERE what = ''default'') AS identical FROM zipf'
\set q2 'SELECT cms_agg(v, 0.01, 0.05)::bytea = (SELECT s::bytea FROM zipf_sketch WHERE what = ''small'') AS identical FROM zipf'
\set q3 'SELECT cms_merge_agg(s)::bytea = (SELECT s::bytea FROM zipf_sketch WHERE what = ''default'') AS identical FROM (SELECT cms_agg(v) AS s FROM zipf GROUP BY id % 7) g'
SELECT * FROM cms_agg_is_parallel(:'q1');
:q1;
SELECT * FROM cms_agg_is_parallel(:'q2');
:q2;
:q3;
RESET ALL;

-- ---- NULLs ----
SELECT cms_total(cms_agg(x)) AS total, cms_estimate(cms_agg(x), 1) AS ones
FROM (VALUES (1), (NULL), (1), (NULL), (2)) t(x);
SELECT cms_agg(x) IS NULL AS all_null FROM (VALUES (NULL::int), (NULL)) t(x);
SELECT cms_agg(x) IS NULL AS no_rows FROM (VALUES (1)) t(x) WHERE false;
SELECT cms_total(cms_agg(x, c)) AS weighted_total FROM (VALUES (1, 5), (2, NULL), (NULL, 7), (3, 2)) t(x, c);
SELECT cms_add(cms_create_dims(5, 2), NULL::int) = cms_create_dims(5, 2) AS null_value_adds_nothing,
       cms_add(cms_create_dims(5, 2), 1, NULL) = cms_create_dims(5, 2) AS null_count_adds_nothing,
       cms_add(NULL::cmsketch, 1) IS NULL AS null_sketch,
       cms_estimate(NULL::cmsketch, 1) IS NULL AS null_estimate,
       cms_merge(NULL, cms_create()) IS NULL AS null_merge;

-- ---- errors ----
SELECT q, cms_try(q) FROM (VALUES
	('SELECT cms_add(cms_create(), 1, -1)'),
	('SELECT cms_agg(x, -1::bigint) FROM generate_series(1, 3) x'),
	('SELECT cms_add(cms_add(cms_create(), 1, 9223372036854775807), 2)'),
	('SELECT cms_add(cms_add(cms_create(), 1, 9223372036854775807), 2, 0)'),
	('SELECT cms_agg(x, 9223372036854775807) FROM generate_series(1, 2) x'),
	('SELECT cms_add(cms_create(), 1, 9223372036854775807) + cms_add(cms_create(), 2)'),
	('SELECT cms_merge_agg(cms_add(cms_create(), 1, 9223372036854775807)) FROM generate_series(1, 2)'),
	('SELECT cms_inner_product(cms_add(cms_create(), 1, 9223372036854775807), cms_add(cms_create(), 1, 2))'),
	('SELECT cms_agg(x, x / 100.0, 0.5) FROM generate_series(1, 3) x'),
	('SELECT cms_agg(x, NULL, 0.01) FROM generate_series(1, 3) x'),
	('SELECT cms_agg(x, 2, 0.01) FROM generate_series(1, 3) x'),
	('SELECT cms_merge(cms_create(0.01), cms_create(0.001))'),
	('SELECT cms_merge(cms_create_dims(11, 2), cms_create_dims(11, 3))'),
	('SELECT cms_merge(cms_create_dims(11, 2), cms_create_dims(11, 2, 1))'),
	('SELECT cms_merge(cms_create(0.01, 0.01), cms_create(0.01, 0.0001))'),
	('SELECT cms_add(cms_create(), 1) + cms_add(cms_create(), ''x'')'),
	('SELECT cms_intersect(cms_add(cms_create(), 1), cms_add(cms_create(), 1.5))'),
	('SELECT cms_inner_product(cms_create(0.1), cms_create(0.2))'),
	('SELECT cms_estimate(cms_add(cms_create(), 1), ''x''::text)'),
	('SELECT cms_add(cms_add(cms_create(), 1), ''x''::text)'),
	('SELECT cms_agg(x) FROM (VALUES (1::text)) t(x) CROSS JOIN (SELECT 1) u WHERE cms_estimate(cms_add(cms_create(), 1), x) > 0')) t(q);

-- The errors name the parameter that differs and both values.
CREATE FUNCTION cms_try_detail(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE detail text; hint text;
BEGIN
	EXECUTE query;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
	RETURN SQLSTATE || ': ' || SQLERRM || ' / ' || coalesce(detail, '') || ' / ' || coalesce(hint, '');
END $$;
SELECT cms_try_detail(q) FROM (VALUES
	('SELECT cms_merge(cms_create(0.01), cms_create(0.001))'),
	('SELECT cms_merge(cms_create_dims(11, 2), cms_create_dims(11, 2, 1))'),
	('SELECT cms_add(cms_create(), 1) + cms_add(cms_create(), ''x'')'),
	('SELECT cms_estimate(cms_add(cms_create(), 1), ''x''::text)'),
	('SELECT cms_add(cms_create(), 1, -5)'),
	('SELECT cms_add(cms_add(cms_create(), 1, 9223372036854775807), 2)')) t(q);

-- cms_agg adds without checking each counter (its states start empty, so no
-- counter exceeds the total, whose bigint check then covers them all); an
-- aggregate declared over cms_agg_trans with an INITCOND starts from any
-- sketch, here one whose rows sum to more than its total (two copies of an
-- intersection where values 1 and y meet in one row only, w = 19, d = 2):
-- its counter of 2^64 - 2 takes one more addition of 1, not two.
DO $$
DECLARE tall cmsketch;
BEGIN
	SELECT cms_merge(i, i) INTO tall
	FROM (SELECT y, cms_intersect(cms_add(cms_create(0.3, 0.3), 1, 9223372036854775807),
	                              cms_add(cms_create(0.3, 0.3), y, 9223372036854775807)) AS i
	      FROM generate_series(2, 1000) y) s
	WHERE cms_total(i) = 0 AND i <> cms_add(cms_create(0.3, 0.3), 1, 0)
	ORDER BY y LIMIT 1;
	EXECUTE format('CREATE AGGREGATE cms_agg_from(anyelement, float8, float8) '
	               '(SFUNC = cms_agg_trans, STYPE = cmsketch, INITCOND = %L)', tall);
END $$;
SELECT q, cms_try(q) FROM (VALUES
	('SELECT cms_agg_from(x, 0.3, 0.3) FROM (VALUES (1)) t(x)'),
	('SELECT cms_agg_from(x, 0.3, 0.3) FROM (VALUES (1), (1)) t(x)'),
	('SELECT cms_agg(x, 0.3, 0.3) FROM (VALUES (1), (1)) t(x)')) t(q);
DROP AGGREGATE cms_agg_from(anyelement, float8, float8);

-- ---- cms_info ----
SELECT * FROM cms_info((SELECT s FROM zipf_sketch WHERE what = 'default'));
SELECT width, depth, copies, round(epsilon::numeric, 6) AS epsilon, round(delta::numeric, 8) AS delta,
       seed, family, total, bytes, format_version
FROM cms_info(cms_add(cms_create(0.01, 0.0001, 99), 'a'::text, 3));

-- ---- equality, ordering, GROUP BY, DISTINCT ----
CREATE TABLE cms_rows AS
SELECT g, cms_agg(x % 5) AS s FROM generate_series(1, 60) x, generate_series(1, 4) g
WHERE x % g = 0 OR g = 1 GROUP BY g;
INSERT INTO cms_rows SELECT 10 + g, s FROM cms_rows;
SELECT count(*) AS rows, count(DISTINCT s) AS distinct_sketches FROM cms_rows;
SET enable_hashagg = off;
SELECT cms_total(s) AS total, count(*) FROM cms_rows GROUP BY s ORDER BY 1;
RESET enable_hashagg;
SET enable_sort = off;
SELECT cms_total(s) AS total, count(*) FROM cms_rows GROUP BY s ORDER BY 1;
RESET enable_sort;
SELECT a.g, b.g FROM cms_rows a JOIN cms_rows b ON a.s = b.s AND a.g < b.g ORDER BY 1;
SELECT cms_create_dims(5, 2) < cms_add(cms_create_dims(5, 2), 1) AS empty_sorts_first,
       cms_create_dims(5, 2) <> cms_create_dims(5, 2, 1) AS seeds_differ,
       cmsketch_cmp(cms_create(), cms_create()) AS cmp_equal,
       cmsketch_hash(cms_create()) = cmsketch_hash(cms_create()::bytea::cmsketch) AS hash_stable;
