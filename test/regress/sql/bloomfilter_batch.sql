-- Element-wise functions (many values in one call): every answer equals the
-- one-value function's for the same element, over every value family, every
-- probing scheme and the storage forms of filters and arrays; NULL, empty,
-- multi-dimensional and lower-bounded arrays; and the same errors.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomsketch;
RESET client_min_messages;
SET max_parallel_workers_per_gather = 0;

-- Runs a statement and reports its SQLSTATE and message, or 'ok'.
CREATE FUNCTION batch_try(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE query;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- The one-value functions folded over an array's elements, in storage
-- order: fold_bloom_add(f, a) adds them one bloom_add at a time (unnest in
-- the select list, which keeps a composite element one value).
CREATE FUNCTION batch_add_step(s bloomfilter, f bloomfilter, x anyelement) RETURNS bloomfilter
	LANGUAGE sql AS 'SELECT bloom_add(coalesce(s, f), x)';
CREATE AGGREGATE batch_add_agg(bloomfilter, anyelement) (SFUNC = batch_add_step, STYPE = bloomfilter);
CREATE FUNCTION fold_bloom_add(f bloomfilter, a anyarray) RETURNS bloomfilter LANGUAGE sql AS
	'SELECT coalesce((SELECT batch_add_agg(f, x ORDER BY o) FROM (SELECT unnest(a) AS x, generate_series(1, cardinality(a)) AS o) u), f)';
CREATE FUNCTION batch_cms_step(s cmsketch, c cmsketch, x anyelement, n bigint) RETURNS cmsketch
	LANGUAGE sql AS 'SELECT cms_add(coalesce(s, c), x, n)';
CREATE AGGREGATE batch_cms_agg(cmsketch, anyelement, bigint) (SFUNC = batch_cms_step, STYPE = cmsketch);
CREATE FUNCTION fold_cms_add(c cmsketch, a anyarray, n bigint) RETURNS cmsketch LANGUAGE sql AS
	'SELECT coalesce((SELECT batch_cms_agg(c, x, n ORDER BY o) FROM (SELECT unnest(a) AS x, generate_series(1, cardinality(a)) AS o) u), c)';

-- For one family (a type and an expression of i giving distinct values):
-- 400 values, every 97th NULL, the first 200 members; a filter of each
-- scheme (fit through bloom_fit_agg), a count-min sketch with collisions
-- (31 x 3 counters, the values of i % 40 counted) and a summary.  Each
-- column is true when the element-wise function answers as the one-value
-- function element by element; positives counts the true answers of
-- bloom_contains_each over all schemes (members and false positives) and
-- topk_listed says that some estimate of the summary is not 0, so that the
-- comparisons cannot pass on all-false or all-zero answers.
CREATE FUNCTION batch_compare(typ text, expr text)
RETURNS TABLE (type text, schemes bigint, each_same boolean, all_any_same boolean,
	members_same boolean, add_same boolean, positives bigint, cms_topk_same boolean,
	topk_listed boolean)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format($q$
		CREATE TEMP TABLE batch_vals AS
		SELECT i, CASE WHEN i %% 97 = 0 THEN NULL ELSE (%2$s)::%1$s END AS v
		FROM generate_series(1, 400) i;
		CREATE TEMP TABLE batch_arr AS
		SELECT array_agg(v ORDER BY i) AS a,
			array_agg(v ORDER BY i) FILTER (WHERE i <= 200) AS members,
			array_agg(v ORDER BY i) FILTER (WHERE i > 300) AS tail
		FROM batch_vals;
		CREATE TEMP TABLE batch_filters AS
		SELECT scheme, CASE WHEN scheme = 'fit'
			THEN (SELECT bloom_fit_agg(v, 0.05) FROM batch_vals WHERE i <= 200)
			ELSE (SELECT bloom_agg(v, 200, 0.05, scheme) FROM batch_vals WHERE i <= 200) END AS f
		FROM unnest(ARRAY['double', 'double_square', 'double_cube', 'partition',
			'independent', 'blocked', 'fit']) scheme;
		CREATE TEMP TABLE batch_sketches AS
		SELECT fold_cms_add(cms_create_dims(31, 3),
				(SELECT array_agg(v ORDER BY i) FROM batch_vals WHERE i %% 40 < 20), 1) AS s,
			(SELECT topk_agg(w.v, 5) FROM batch_vals w, generate_series(1, 1 + i %% 7) r
			 WHERE i <= 50) AS t
		$q$, typ, expr);
	RETURN QUERY
	SELECT typ,
		count(*),
		bool_and(bloom_contains_each(f, a) IS NOT DISTINCT FROM
			ARRAY(SELECT bloom_contains(f, v) FROM batch_vals ORDER BY i)),
		bool_and(bloom_contains_all(f, a) = coalesce((SELECT bool_and(bloom_contains(f, v)) FROM batch_vals), true)
			AND bloom_contains_any(f, a) = coalesce((SELECT bool_or(bloom_contains(f, v)) FROM batch_vals), false)
			AND bloom_contains_all(f, members)
			AND bloom_contains_any(f, tail) = coalesce((SELECT bool_or(bloom_contains(f, v)) FROM batch_vals WHERE i > 300), false)),
		bool_and(ARRAY(SELECT bloom_members(f, a)) IS NOT DISTINCT FROM
			ARRAY(SELECT v FROM batch_vals WHERE bloom_contains(f, v) ORDER BY i)),
		bool_and(bloom_add_each(f, tail) = fold_bloom_add(f, tail)),
		sum((SELECT count(*) FROM unnest(bloom_contains_each(f, a)) b WHERE b))::bigint,
		(SELECT cms_estimate_each(s, a) IS NOT DISTINCT FROM
				ARRAY(SELECT cms_estimate(s, v) FROM batch_vals ORDER BY i)
			AND cms_add_each(s, tail, 3) = fold_cms_add(s, tail, 3)
			AND topk_estimate_each(t, a) IS NOT DISTINCT FROM
				ARRAY(SELECT topk_estimate(t, v) FROM batch_vals ORDER BY i)
			AND ARRAY(SELECT row(b.lower_bound, b.upper_bound) FROM topk_bounds_each(t, a) b) IS NOT DISTINCT FROM
				ARRAY(SELECT CASE WHEN v IS NULL THEN row(NULL::bigint, NULL::bigint)
					ELSE row((topk_bounds(t, v)).lower_bound, (topk_bounds(t, v)).upper_bound) END
					FROM batch_vals ORDER BY i)
			AND (SELECT bool_and(b.value IS NOT DISTINCT FROM v.v) FROM topk_bounds_each(t, a) WITH ORDINALITY b
				JOIN batch_vals v ON v.i = b.ordinality)
			FROM batch_sketches, batch_arr),
		(SELECT count(*) FROM batch_sketches, batch_arr, unnest(topk_estimate_each(t, a)) e WHERE e > 0) > 0
	FROM batch_filters, batch_arr;
	DROP TABLE batch_vals, batch_arr, batch_filters, batch_sketches;
END $$;

CREATE TYPE batch_pair AS (a int, b text);
SELECT c.* FROM (VALUES
	('bigint', 'i'), ('integer', 'i'), ('smallint', 'i'),
	('text', 'md5(i::text)'), ('varchar', '''v'' || i'), ('bytea', 'decode(md5(i::text), ''hex'')'),
	('uuid', 'md5(i::text)::uuid'), ('numeric', 'i / 7.0'), ('float8', 'i / 8.0'),
	('float4', 'i / 4.0'), ('boolean', 'i % 3 = 0'), ('date', 'date ''2020-01-01'' + i'),
	('timestamp', 'timestamp ''2020-01-01'' + i * interval ''1 minute'''),
	('timestamptz', 'timestamptz ''2020-01-01 00:00+00'' + i * interval ''1 second'''),
	('batch_pair', 'row(i, md5(i::text))'), ('jsonb', 'jsonb_build_object(''k'', i, ''w'', md5(i::text))'),
	('int4range', 'int4range(i, i + 3)'), ('interval', 'i * interval ''1 second'''),
	('inet', '(''10.0.'' || i / 256 || ''.'' || i % 256)::inet')) t(typ, expr),
	LATERAL batch_compare(typ, expr) c;

-- An array of arrays is one multi-dimensional array of their elements in
-- PostgreSQL, so a filter of arrays (family other) refuses it as integers:
-- probe such a filter with one array at a time (bloom_contains, @>).
CREATE TEMP TABLE array_filter AS SELECT bloom_agg(ARRAY[i, i + 1], 100) AS f FROM generate_series(1, 50) i;
SELECT f @> ARRAY[1, 2] AS one_array_member FROM array_filter;
SELECT batch_try('SELECT bloom_contains_each(f, ARRAY[ARRAY[1, 2], ARRAY[3, 4]]) FROM array_filter');

-- ---- array shapes ----
CREATE TEMP TABLE small AS SELECT bloom_agg(i::bigint, 100, 0.01) AS f FROM generate_series(1, 50) i;
-- multi-dimensional arrays are read in storage order; lower bounds play no
-- part; the result is one-dimensional from 1
SELECT bloom_contains_each(f, '[0:1][5:7]={{1,2,1000},{3,NULL,2000}}'::bigint[]) AS two_dims,
	bloom_contains_each(f, '[-3:-1]={1000,1,2}'::bigint[]) AS lower_bound_minus_3,
	array_lower(bloom_contains_each(f, '[5:6]={1,2}'::bigint[]), 1) AS result_lower,
	array_ndims(bloom_contains_each(f, '{{1,2},{3,4}}'::bigint[])) AS result_dims
FROM small;
SELECT m.* FROM small, bloom_members(f, '[0:1][5:7]={{1,2,1000},{3,NULL,2000}}'::bigint[]) WITH ORDINALITY m;
SELECT cms_estimate_each(cms_add_each(cms_create_dims(101, 3), '{{1,1},{2,NULL}}'::bigint[]), '[7:9]={1,2,3}'::bigint[]) AS cms_shapes;
-- empty arrays, all-NULL arrays, NULL arrays
SELECT bloom_contains_each(f, '{}'::bigint[]) AS each_empty, bloom_contains_all(f, '{}'::bigint[]) AS all_empty,
	bloom_contains_any(f, '{}'::bigint[]) AS any_empty, (SELECT count(*) FROM bloom_members(f, '{}'::bigint[])) AS members_empty,
	bloom_add_each(f, '{}'::bigint[]) = f AS add_empty_unchanged,
	bloom_contains_each(f, '{NULL,NULL}'::bigint[]) AS each_nulls, bloom_contains_all(f, '{NULL}'::bigint[]) AS all_nulls,
	bloom_contains_any(f, '{NULL}'::bigint[]) AS any_nulls, bloom_add_each(f, '{NULL}'::bigint[]) = f AS add_nulls_unchanged,
	bloom_contains_each(f, NULL::bigint[]) AS each_null_array, bloom_add_each(f, NULL::bigint[]) = f AS add_null_array,
	bloom_add_each(NULL, '{1}'::bigint[]) AS add_to_null
FROM small;
SELECT cms_estimate_each(cms_create_dims(5, 2), '{}'::bigint[]) AS cms_empty,
	cms_estimate_each(cms_create_dims(5, 2), '{1,NULL}'::bigint[]) AS cms_empty_sketch,
	cms_add_each(cms_create_dims(5, 2), NULL::bigint[]) = cms_create_dims(5, 2) AS cms_null_array,
	cms_add_each(cms_create_dims(5, 2), '{1}'::bigint[], NULL) = cms_create_dims(5, 2) AS cms_null_count,
	(cms_info(cms_add_each(cms_create_dims(5, 2), '{1}'::bigint[], 0))).family AS count_0_adopts,
	topk_estimate_each(topk_create(3), '{1,NULL}'::bigint[]) AS topk_empty_summary;
-- an empty filter answers false and checks no family, as bloom_contains does
SELECT bloom_contains_each(bloom_create(10), '{1,NULL}'::bigint[]) AS empty_filter,
	bloom_contains_each(bloom_create(10), '{1}'::bigint[]) = ARRAY[bloom_contains(bloom_create(10), 1::bigint)] AS same;

-- ---- storage forms: out-of-line and compressed arrays and filters in a table ----
CREATE TEMP TABLE stored (id int, f bloomfilter, ext bigint[], comp bigint[], inline_comp bigint[]);
ALTER TABLE stored ALTER COLUMN f SET STORAGE EXTERNAL;
ALTER TABLE stored ALTER COLUMN ext SET STORAGE EXTERNAL;
ALTER TABLE stored ALTER COLUMN inline_comp SET STORAGE MAIN;
INSERT INTO stored
SELECT 1, (SELECT bloom_agg(i::bigint, 20000, 0.01, 'blocked') FROM generate_series(1, 20000, 2) i),
	(SELECT array_agg(i::bigint ORDER BY i) FROM generate_series(1, 20000) i),
	(SELECT array_agg((i % 7000)::bigint ORDER BY i) FROM generate_series(1, 20000) i),
	(SELECT array_agg((i % 3)::bigint ORDER BY i) FROM generate_series(1, 600) i);
INSERT INTO stored SELECT 2, bloom_agg(i::bigint, 20000, 0.01), ext, comp, inline_comp
FROM stored, generate_series(1, 20000, 3) i GROUP BY ext, comp, inline_comp;
-- how each is stored: f and ext out of line uncompressed (EXTERNAL, past
-- the 2 kB threshold), comp compressed out of line, inline_comp compressed
-- in the row (MAIN: 4.8 kB of repeats that compress far below 2 kB)
SELECT id, pg_column_compression(f) AS f, pg_column_size(f) AS f_bytes,
	pg_column_compression(ext) AS ext, pg_column_size(ext) AS ext_bytes,
	pg_column_compression(comp) IS NOT NULL AS comp_compressed, pg_column_size(comp) > 2000 AS comp_past_threshold,
	pg_column_compression(inline_comp) IS NOT NULL AS inline_compressed, pg_column_size(inline_comp) < 2000 AS inline_small
FROM stored ORDER BY id;
SELECT id, bloom_contains_each(f, ext) = ARRAY(SELECT bloom_contains(f, x) FROM unnest(ext) WITH ORDINALITY u(x, o) ORDER BY o) AS ext_same,
	bloom_contains_each(f, comp) = ARRAY(SELECT bloom_contains(f, x) FROM unnest(comp) WITH ORDINALITY u(x, o) ORDER BY o) AS comp_same,
	bloom_contains_each(f, inline_comp) = ARRAY(SELECT f @> x FROM unnest(inline_comp) WITH ORDINALITY u(x, o) ORDER BY o) AS inline_same,
	(SELECT count(*) FROM bloom_members(f, ext)) = (SELECT count(*) FROM unnest(ext) x WHERE f @> x) AS members_same,
	(SELECT count(*) FROM bloom_members(f, ext)) AS members,
	bloom_add_each(f, comp[1:500]) = fold_bloom_add(f, comp[1:500]) AS add_same,
	cms_estimate_each(c, ext) = ARRAY(SELECT cms_estimate(c, x) FROM unnest(ext) WITH ORDINALITY u(x, o) ORDER BY o) AS cms_same
FROM stored, (SELECT fold_cms_add(cms_create_dims(211, 4), ARRAY[1, 5, 5, 7000]::bigint[], 1) AS c) s ORDER BY id;
-- the same stored filter against the arrays of many rows (the call site's cache)
SELECT count(*) AS rows, sum(cardinality(bloom_contains_each(s.f, ARRAY[g.i::bigint, g.i + 1]))) AS answers,
	bool_and(bloom_contains_each(s.f, ARRAY[g.i::bigint, g.i + 1]) = ARRAY[s.f @> g.i::bigint, s.f @> (g.i + 1)::bigint]) AS same
FROM stored s, generate_series(1, 2000) g(i) WHERE s.id = 1;

-- ---- expanded arrays: arrays held in PL/pgSQL variables ----
-- A PL/pgSQL variable holds its array expanded and hands it over as such
-- to a call in a simple expression: as a flat copy, or, once an element
-- has been assigned, as one Datum per element.  Each form answers as the
-- same array read from a table, for a kind read directly (bigint), one read
-- through the iterator (text), NULL elements and two dimensions.
CREATE FUNCTION each_in_variables(ids bigint[], words text[], f bloomfilter, g bloomfilter, c cmsketch,
	t topksketch, by_datums boolean)
RETURNS TABLE (contains boolean[], words_contain boolean[], contains_all boolean, words_any boolean,
	added bloomfilter, words_added bloomfilter, estimates bigint[], counted cmsketch, topk_estimates bigint[])
LANGUAGE plpgsql AS $$
DECLARE
	v bigint[] := ids;
	w text[] := words;
BEGIN
	IF by_datums AND array_ndims(v) = 2 THEN
		v[array_lower(v, 1)][array_lower(v, 2)] := v[array_lower(v, 1)][array_lower(v, 2)];
		w[array_lower(w, 1)][array_lower(w, 2)] := w[array_lower(w, 1)][array_lower(w, 2)];
	ELSIF by_datums THEN
		v[array_lower(v, 1)] := v[array_lower(v, 1)];
		w[array_lower(w, 1)] := w[array_lower(w, 1)];
	END IF;
	contains := bloom_contains_each(f, v);
	words_contain := bloom_contains_each(g, w);
	contains_all := bloom_contains_all(f, v);
	words_any := bloom_contains_any(g, w);
	added := bloom_add_each(f, v);
	words_added := bloom_add_each(g, w);
	estimates := cms_estimate_each(c, v);
	counted := cms_add_each(c, v, 3);
	topk_estimates := topk_estimate_each(t, v);
	RETURN NEXT;
END $$;
CREATE TEMP TABLE in_variables AS
SELECT shape, ids, words, (SELECT bloom_agg(x, 1000, 0.01) FROM unnest(ids[1:100]) x) AS f,
	(SELECT bloom_agg(x, 1000, 0.01, 'blocked') FROM unnest(words[1:100]) x) AS g,
	(SELECT cms_agg(x % 40) FROM unnest(ids) x) AS c, (SELECT topk_agg(x % 50, 20) FROM unnest(ids) x) AS t
FROM (SELECT 'long' AS shape,
		(SELECT array_agg(CASE WHEN i % 37 = 0 THEN NULL ELSE i * 3 END ORDER BY i) FROM generate_series(1, 1000) i) AS ids,
		(SELECT array_agg(CASE WHEN i % 41 = 0 THEN NULL ELSE md5(i::text) END ORDER BY i) FROM generate_series(1, 1000) i) AS words
	UNION ALL SELECT 'two dimensions', '[0:1][3:4]={{3,NULL},{6,9}}', '{{a,NULL},{c,d}}') s;
SELECT shape, by_datums, r.contains = bloom_contains_each(f, ids) AS contains,
	r.words_contain = bloom_contains_each(g, words) AS words_contain,
	r.contains_all = bloom_contains_all(f, ids) AND r.words_any = bloom_contains_any(g, words) AS all_any,
	r.added = bloom_add_each(f, ids) AND r.words_added = bloom_add_each(g, words) AS added,
	r.estimates = cms_estimate_each(c, ids) AND r.counted = cms_add_each(c, ids, 3) AS cms,
	r.topk_estimates = topk_estimate_each(t, ids) AS topk,
	(SELECT count(*) FILTER (WHERE m) FROM unnest(r.contains) m) AS members
FROM in_variables, (VALUES (false), (true)) d(by_datums),
	each_in_variables(ids, words, f, g, c, t, by_datums) r
ORDER BY shape, by_datums;

-- ---- the semi-join pattern (docs/reference.md): keys in arrays per block of rows ----
CREATE TEMP TABLE keys AS SELECT i::bigint AS id FROM generate_series(1, 5000) i;
SELECT (SELECT count(*) FROM keys, stored WHERE stored.id = 1 AND f @> keys.id) AS per_row,
	(SELECT count(*) FROM stored, (SELECT array_agg(id) AS ids FROM keys GROUP BY id / 1000) b,
		bloom_members(f, b.ids) WHERE stored.id = 1) AS semi_join;

-- ---- errors ----
-- a value of another family: 22023, as for one value
SELECT batch_try('SELECT bloom_contains_each(f, ARRAY[''a'']) FROM small');
SELECT batch_try('SELECT bloom_contains(f, ''a''::text) FROM small');
SELECT batch_try('SELECT bloom_add_each(f, ARRAY[1.5]) FROM small');
SELECT batch_try('SELECT cms_estimate_each(cms_add(cms_create_dims(5, 2), 1::bigint), ARRAY[''a''])');
SELECT batch_try('SELECT cms_add_each(cms_add(cms_create_dims(5, 2), 1::bigint), ARRAY[''a''])');
SELECT batch_try('SELECT topk_estimate_each(topk_add(topk_create(2), 1::bigint), ARRAY[''a''])');
SELECT batch_try('SELECT count(*) FROM topk_bounds_each(topk_add(topk_create(2), 1::bigint), ARRAY[''a''])');
-- a partial state of bloom_fit_agg: refused as by bloom_add and bloom_contains
CREATE AGGREGATE batch_fit_partial(bigint, float8, bigint) (SFUNC = bloom_fit_agg_trans, STYPE = bloomfilter);
CREATE TEMP TABLE partial AS SELECT batch_fit_partial(i, 0.01, 134217728) AS p FROM generate_series(1, 10) i;
SELECT batch_try('SELECT bloom_add(p, 1::bigint) FROM partial');
SELECT batch_try('SELECT bloom_add_each(p, ''{1}''::bigint[]) FROM partial');
SELECT batch_try('SELECT bloom_contains_each(p, ''{1}''::bigint[]) FROM partial');
SELECT batch_try('SELECT count(*) FROM partial, bloom_members(p, ''{1}''::bigint[])');
-- a finished fit filter takes adds, as bloom_add: the same bits
SELECT bloom_add_each(f, '{1000,1001}'::bigint[]) = bloom_add(bloom_add(f, 1000::bigint), 1001::bigint) AS fit_adds_same
FROM (SELECT bloom_fit_agg(i::bigint) AS f FROM generate_series(1, 100) i) x;
-- cms counts: negative (22023), the total past bigint (22003, the message of cms_add)
SELECT batch_try('SELECT cms_add_each(cms_create_dims(5, 2), ''{1}''::bigint[], -1)');
SELECT batch_try('SELECT cms_add_each(cms_create_dims(5, 2), ''{1,2,3}''::bigint[], 4611686018427387904)');
SELECT batch_try('SELECT cms_add(cms_add(cms_create_dims(5, 2), 1::bigint, 4611686018427387904), 2::bigint, 4611686018427387904)');
-- a negative count with no value to add adds nothing, as cms_add with a NULL value
SELECT cms_add_each(cms_create_dims(5, 2), '{NULL}'::bigint[], -1) = cms_create_dims(5, 2) AS negative_without_values;
-- an untyped literal has no element type
SELECT batch_try('SELECT bloom_contains_each(f, ''{1,2}'') FROM small');
-- citext arrays are refused as citext values (0A000), domains over them too
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS citext;
RESET client_min_messages;
CREATE DOMAIN batch_citexts AS citext[];
SELECT batch_try('SELECT bloom_contains_each(bloom_create(10), ARRAY[''a''::citext])');
SELECT batch_try('SELECT bloom_add_each(bloom_create(10), ARRAY[''a''::citext])');
SELECT batch_try('SELECT count(*) FROM bloom_members(bloom_create(10), ARRAY[''a''::citext])');
SELECT batch_try('SELECT cms_add_each(cms_create_dims(5, 2), ARRAY[''a''::citext])');
SELECT batch_try('SELECT topk_estimate_each(topk_create(2), ARRAY[''a''::citext])');
SELECT batch_try('SELECT bloom_add_each(bloom_create(10), ARRAY[''a'']::batch_citexts)');
SELECT batch_try('SELECT bloom_add(bloom_create(10), ''a''::citext)');
-- the functions' properties
SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS args, p.provolatile, p.proisstrict,
	p.proparallel, p.proretset, obj_description(p.oid, 'pg_proc') IS NOT NULL AS commented
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomsketch'
WHERE p.proname ~ '_each$|_all$|_any$|^bloom_members$' AND p.prokind = 'f'
ORDER BY 1, 2;

DROP EXTENSION citext CASCADE;
