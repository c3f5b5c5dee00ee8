-- test/harness/citus.sh: the tables and the comparison harness, run on the
-- coordinator.  Every distributed table dist_X has a local twin local_X
-- holding the same rows; a check runs the same query over both and requires
-- the same rows, byte for byte, and a plan of the expected shape.
SET citus.shard_count = 8;
SET client_min_messages = warning;

-- One column per type; id is the distribution column, g a grouping column
-- that is not, w a weight for cms_agg.  About one value in eight is NULL, and group 5 has
-- only NULLs (its filters and sketches are NULL).
CREATE TABLE local_all (
	id int, g int, w bigint,
	c_int2 int2, c_int4 int4, c_int8 int8, c_numeric numeric, c_float4 float4,
	c_float8 float8, c_text text, c_varchar varchar(20), c_bpchar char(12), c_name name,
	c_char "char", c_bytea bytea, c_uuid uuid, c_date date, c_timestamp timestamp,
	c_timestamptz timestamptz, c_boolean boolean,
	o_int4_array int4[], o_jsonb jsonb, o_interval interval, o_int4range int4range,
	o_time time, o_inet inet);
INSERT INTO local_all
SELECT i, i % 6, CASE WHEN i % 11 = 0 THEN NULL ELSE 1 + i % 4 END, v.*
FROM generate_series(1, 3000) i,
	LATERAL (SELECT i % 6 = 5 OR i % 8 = 0 AS null_row) n,
	LATERAL (SELECT
		CASE WHEN NOT null_row THEN (i * 37 % 30000 - 15000)::int2 END,
		CASE WHEN NOT null_row THEN i * 7919 - 500000 END,
		CASE WHEN NOT null_row THEN i * 1000000007::int8 END,
		CASE WHEN NOT null_row THEN CASE i % 3 WHEN 0 THEN 1.0 WHEN 1 THEN 1.00 ELSE i / 8.0 END END,
		CASE WHEN NOT null_row THEN CASE i % 5 WHEN 0 THEN '-0'::float4 ELSE (i / 3.0)::float4 END END,
		CASE WHEN NOT null_row THEN CASE i % 7 WHEN 0 THEN 'NaN'::float8 ELSE i / 3.0 END END,
		CASE WHEN NOT null_row THEN 'user-' || i || repeat('é', i % 3) END,
		CASE WHEN NOT null_row THEN 'v' || i END,
		CASE WHEN NOT null_row THEN 'b' || i END,
		CASE WHEN NOT null_row THEN ('n' || i)::name END,
		CASE WHEN NOT null_row THEN chr(33 + i % 90)::"char" END,
		CASE WHEN NOT null_row THEN decode(md5(i::text), 'hex') END,
		CASE WHEN NOT null_row THEN md5(i::text)::uuid END,
		CASE WHEN NOT null_row THEN date '2024-01-01' + i END,
		CASE WHEN NOT null_row THEN timestamp '2024-01-01' + i * interval '1 minute 1.5 second' END,
		CASE WHEN NOT null_row THEN timestamptz '2024-01-01 00:00+00' + i * interval '1 hour' END,
		CASE WHEN NOT null_row THEN i % 3 = 0 END,
		CASE WHEN NOT null_row THEN ARRAY[i, i + 1, NULL] END,
		CASE WHEN NOT null_row THEN jsonb_build_object('k', i, 'a', jsonb_build_array(i, 'x')) END,
		CASE WHEN NOT null_row THEN make_interval(days => i % 40, secs => i) END,
		CASE WHEN NOT null_row THEN int4range(i, i + i % 5) END,
		CASE WHEN NOT null_row THEN time '00:00' + i * interval '17 second' END,
		CASE WHEN NOT null_row THEN ('10.0.' || i % 256 || '.' || i % 7)::inet END
	) v;
CREATE TABLE dist_all (LIKE local_all);
SELECT create_distributed_table('dist_all', 'id');
INSERT INTO dist_all SELECT * FROM local_all;

-- Three rows on eight shards: at least five shards are empty.
CREATE TABLE local_few AS SELECT * FROM local_all WHERE id IN (1, 2, 3);
CREATE TABLE dist_few (LIKE local_all);
SELECT create_distributed_table('dist_few', 'id');
INSERT INTO dist_few SELECT * FROM local_few;

-- States large enough (1.2 MB) for bloom_agg's prefetch pipeline.
CREATE TABLE local_big AS SELECT i AS id, i % 4 AS g, i::bigint * 7 AS v, 'u' || i AS s
	FROM generate_series(1, :big_rows) i;
CREATE TABLE dist_big (LIKE local_big);
SELECT create_distributed_table('dist_big', 'id');
INSERT INTO dist_big SELECT * FROM local_big;

-- A distributed column of filters, sketches and summaries: one per (id, day).
CREATE TABLE local_sketches AS
SELECT id % 40 AS id, g AS day, bloom_agg(c_int8, 2000) AS f, cms_agg(c_text) AS s,
	topk_agg(least(abs(c_int4) % 17, abs(c_int4) % 5), 10) AS k
FROM local_all GROUP BY id % 40, g;
CREATE TABLE dist_sketches (LIKE local_sketches);
SELECT create_distributed_table('dist_sketches', 'id');
INSERT INTO dist_sketches SELECT * FROM local_sketches;

ANALYZE;

-- The rows of a query, in its order, as one md5 (of their text forms), with
-- their count: "3 rows, 6c8f...".
CREATE FUNCTION query_digest(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	r record;
	acc text := '';
	n int := 0;
BEGIN
	FOR r IN EXECUTE q LOOP
		acc := md5(acc || r::text);
		n := n + 1;
	END LOOP;
	RETURN n || ' rows, ' || acc;
END
$$;

CREATE FUNCTION query_plan(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	line text;
	acc text := '';
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
		acc := acc || line || E'\n';
	END LOOP;
	RETURN acc;
END
$$;

-- How Citus ran the aggregates of a plan: 'partial' (worker_partial_agg on
-- the workers, coord_combine_agg on the coordinator), 'gathered' (the rows
-- shipped to the coordinator and aggregated there) or 'workers' (the whole
-- aggregation pushed down, as for GROUP BY the distribution column).
CREATE FUNCTION citus_mode(plan text) RETURNS text LANGUAGE sql AS $$
	SELECT CASE
		WHEN plan LIKE '%worker_partial_agg(%' AND plan LIKE '%coord_combine_agg(%' THEN 'partial'
		WHEN plan ~ 'Query: SELECT [^\n]*(bloom|cms|topk)_[a-z_]*agg\(' THEN 'workers'
		ELSE 'gathered' END
$$;

CREATE TABLE checks (grp text, what text, ok boolean, detail text);

-- Record the outcome of a check: a problem with query qd, or NULL when none.
CREATE FUNCTION record_check(grp text, what text, qd text, problem text) RETURNS void
LANGUAGE sql AS $$
	INSERT INTO checks VALUES (grp, what, problem IS NULL,
		CASE WHEN problem IS NOT NULL THEN qd || ': ' || problem END)
$$;

-- What is wrong with the plan of query qd, or NULL: another mode than
-- want_mode ('any' takes any), or, run partially, a worker query that names
-- an anyelement overload.
CREATE FUNCTION plan_problem(qd text, want_mode text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	plan text := query_plan(qd);
	mode text := citus_mode(plan);
BEGIN
	IF want_mode <> 'any' AND mode <> want_mode THEN
		RETURN format('ran %s, expected %s', mode, want_mode);
	ELSIF mode = 'partial' AND plan LIKE '%anyelement%' THEN
		RETURN 'the worker query names an anyelement overload';
	END IF;
	RETURN NULL;
END
$$;

-- check(group, what, query over "T", expected mode): runs the query with T
-- replaced by the distributed and by the local table, and records whether
-- both gave the same rows and the plan had the expected mode; with mode
-- 'partial', the worker query must also name a typed overload (no
-- anyelement); mode 'any' is for queries without aggregates.
CREATE FUNCTION check_query(grp text, what text, q text, want_mode text,
	tbl text DEFAULT 'all') RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	qd text := replace(q, ' T', ' dist_' || tbl);
	ql text := replace(q, ' T', ' local_' || tbl);
	dd text;
	ld text;
	problem text := NULL;
BEGIN
	BEGIN
		dd := query_digest(qd);
		ld := query_digest(ql);
		IF dd IS DISTINCT FROM ld THEN
			problem := format('distributed %s, local %s', dd, ld);
		ELSIF ld LIKE '0 rows%' THEN
			problem := 'no rows';
		ELSE
			problem := plan_problem(qd, want_mode);
		END IF;
	EXCEPTION WHEN OTHERS THEN
		problem := SQLERRM;
	END;
	PERFORM record_check(grp, what, qd, problem);
END
$$;

-- check_topk(group, what, query over "T", expected mode, table, exact, value,
-- type, grouped[, weight]): a topksketch of the distributed table may have other bytes
-- than that of the local twin (merged partial summaries depend on the split,
-- docs/topk.md), so instead of comparing bytes this checks the guarantees of
-- every summary the distributed query returns against the exact counts of
-- the expression `value` over the local table `exact` (each row counting
-- `weight` times, rows with a NULL weight not at all, for topk_weighted_agg):
-- its total is the number of non-NULL values counted; each listed value, read back as `type`, has
-- lower_bound <= its count <= upper_bound; a value not listed occurs at most
-- max_error and at most N/(c+1) times.  The query returns (g, s): with
-- grouped, a summary of the rows of group g, else of all rows (g is 0).
CREATE FUNCTION check_topk(grp text, what text, q text, want_mode text, tbl text,
	exact text, value text, typ text, grouped boolean, weight text DEFAULT '1')
	RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	qd text := replace(q, ' T', ' dist_' || tbl);
	r record;
	holds boolean;
	summaries int := 0;
	problem text := NULL;
BEGIN
	BEGIN
		FOR r IN EXECUTE qd LOOP
			IF r.s IS NULL THEN
				CONTINUE;
			END IF;
			EXECUTE format($c$
				WITH info AS (SELECT * FROM topk_info($1)),
				counts AS (SELECT %1$s AS v, sum(%4$s) AS n FROM %2$s
				           WHERE %1$s IS NOT NULL AND %4$s IS NOT NULL AND (NOT $2 OR g = $3)
				           GROUP BY 1),
				listed AS (SELECT t.*, coalesce(c.n, 0) AS n
				           FROM topk_items($1) t LEFT JOIN counts c ON c.v = t.value::%3$s)
				SELECT (SELECT sum(n) FROM counts) = info.total
					AND coalesce((SELECT bool_and(lower_bound <= n AND n <= upper_bound) FROM listed), true)
					AND NOT EXISTS (SELECT 1 FROM counts c
						WHERE NOT EXISTS (SELECT 1 FROM topk_items($1) t WHERE t.value::%3$s = c.v)
						AND (c.n > info.max_error OR c.n * (info.counters + 1) > info.total))
				FROM info $c$, value, exact, typ, weight)
			INTO holds USING r.s, grouped, r.g;
			summaries := summaries + 1;
			IF holds IS NOT TRUE THEN
				problem := format('the summary of group %s breaks a guarantee', r.g);
				EXIT;
			END IF;
		END LOOP;
		IF problem IS NULL AND summaries = 0 THEN
			problem := 'no summaries';
		ELSIF problem IS NULL THEN
			problem := plan_problem(qd, want_mode);
		END IF;
	EXCEPTION WHEN OTHERS THEN
		problem := SQLERRM;
	END;
	PERFORM record_check(grp, what, qd, problem);
END
$$;

