-- Self-sized filters at their edges (docs/fit.md): a partial state of
-- bloom_fit_agg given to any other function, the whole range of rates, and
-- estimates on combinations of filters of different sizes.
CREATE EXTENSION IF NOT EXISTS bloomsketch;

-- A partial state of bloom_fit_agg, as a distributed engine ships it.
CREATE AGGREGATE fit_partial_state(bigint) (SFUNC = bloom_fit_agg_trans, STYPE = bloomfilter);
CREATE TABLE edge_values AS
SELECT (SELECT fit_partial_state(v::bigint) FROM generate_series(1, 5) v) AS partial,
       (SELECT bloom_fit_agg(v::bigint) FROM generate_series(1, 5) v) AS fit;

-- Text and binary forms of a partial state keep working (they carry it).
SELECT partial::text::bloomfilter::text = partial::text AS text_round_trips,
       split_part(partial::text, ':', 3) AS scheme
FROM edge_values;

-- Every function of the extension that takes a bloomfilter, called with the
-- partial state in each bloomfilter argument (a finished fit filter in the
-- others), must refuse it with 22023.  Only the aggregate's own functions
-- and the type's input and output functions read partial states.
CREATE FUNCTION edge_sample(t regtype) RETURNS text LANGUAGE sql AS $$
SELECT CASE
	WHEN t = 'uuid'::regtype THEN '''00000000-0000-0000-0000-000000000001''::uuid'
	WHEN t IN ('date'::regtype, 'timestamp'::regtype, 'timestamptz'::regtype) THEN '''2020-01-01''::' || t::text
	WHEN t = 'anyelement'::regtype THEN '1::bigint'
	WHEN t = 'anyarray'::regtype THEN '''{1}''::bigint[]'
	WHEN t = 'double precision'::regtype THEN '0.5::float8'
	WHEN t = 'text'::regtype THEN '''double''::text'
	ELSE '''1''::' || t::text
END $$;
CREATE FUNCTION edge_refusals() RETURNS TABLE (call text, sqlstate text)
LANGUAGE plpgsql AS $$
DECLARE
	f record;
	position int;
	args text[];
	query text;
	state text;
BEGIN
	FOR f IN
		SELECT p.oid, p.proname, p.prokind,
		       ARRAY(SELECT unnest(p.proargtypes::regtype[])) AS types
		FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
		JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomsketch'
		WHERE 'bloomfilter'::regtype = ANY (p.proargtypes)
		  AND p.proname NOT IN ('bloomfilter_out', 'bloomfilter_send')
		  AND p.proname NOT LIKE 'bloom\_fit\_agg\_%'
		ORDER BY p.oid::regprocedure::text
	LOOP
		FOR position IN 1 .. array_length(f.types, 1) LOOP
			CONTINUE WHEN f.types[position] <> 'bloomfilter'::regtype;
			args := ARRAY[]::text[];
			FOR i IN 1 .. array_length(f.types, 1) LOOP
				args := args || CASE WHEN i = position THEN '(SELECT partial FROM edge_values)'
					WHEN f.types[i] = 'bloomfilter'::regtype THEN '(SELECT fit FROM edge_values)'
					ELSE edge_sample(f.types[i]) END;
			END LOOP;
			IF f.prokind = 'a' THEN
				query := format('SELECT %I(x) FROM (SELECT %s AS x) s', f.proname, args[1]);
			ELSIF f.proname LIKE '%\_trans' THEN
				-- a transition function reads its state only inside an aggregate
				EXECUTE format('CREATE AGGREGATE pg_temp.edge_agg(%s) (SFUNC = %I, STYPE = bloomfilter, INITCOND = %L)',
					array_to_string(f.types[2:], ', '), f.proname,
					(SELECT CASE WHEN position = 1 THEN partial ELSE fit END::text FROM edge_values));
				args[1] := NULL;
				query := format('SELECT pg_temp.edge_agg(%s)', array_to_string(args[2:], ', '));
			ELSE
				query := format('SELECT %I(%s)', f.proname, array_to_string(args, ', '));
			END IF;
			BEGIN
				EXECUTE query;
				state := 'accepted';
			EXCEPTION WHEN OTHERS THEN
				state := SQLSTATE;
			END;
			IF f.proname LIKE '%\_trans' THEN
				EXECUTE format('DROP AGGREGATE pg_temp.edge_agg(%s)', array_to_string(f.types[2:], ', '));
			END IF;
			call := format('%s, argument %s', f.oid::regprocedure, position);
			sqlstate := state;
			RETURN NEXT;
		END LOOP;
	END LOOP;
END $$;
CREATE TABLE edge_calls AS SELECT * FROM edge_refusals();
-- how many calls were tried (every bloomfilter argument of every function)
SELECT count(*) AS calls, count(DISTINCT split_part(call, ',', 1)) AS functions
FROM edge_calls;
-- calls that did not refuse the state with 22023: none
SELECT call, sqlstate FROM edge_calls WHERE sqlstate <> '22023' ORDER BY call;
-- the casts to and from bytea, and the operators, refuse it too
\set VERBOSITY default
SELECT partial::bytea FROM edge_values;
SELECT partial = partial FROM edge_values;
SELECT fit | partial FROM edge_values;
SELECT bloom_fpr(partial) FROM edge_values;
\set VERBOSITY terse
SELECT bloomfilter_send(partial)::bloomfilter FROM edge_values;

-- Every rate between 0 and 1 is accepted, down to the smallest double (k
-- is round(log2(1 / rate)), at most 1,024).  A group either meets the rate
-- (the expected rate for its n) or is kept at its ceiling, flagged, with its
-- real (higher) rate: three values at k = 1,024 fill a 1,024-bit ceiling,
-- while 8,192 bits meet even 5e-324 (about (1 - e^(-3 k / m))^k).  A rate under 1e-78 (k > 256) once made the state
-- of one value "corrupt".
\set VERBOSITY terse
CREATE TABLE edge_strict AS
SELECT r AS rate, c AS max_bits,
       CASE WHEN c IS NULL THEN (SELECT bloom_fit_agg(v::bigint, r) FROM generate_series(1, 3) v)
            ELSE (SELECT bloom_fit_agg(v::bigint, r, c) FROM generate_series(1, 3) v) END AS f
FROM unnest(ARRAY[1e-78, 1e-80, 1e-300, 4.9e-324]::float8[]) r,
     unnest(ARRAY[NULL, 1024, 65536]::bigint[]) c;
SELECT rate, max_bits, (bloom_info(f)).hashes, (bloom_info(f)).bits, (bloom_info(f)).over_ceiling,
       (SELECT bool_and(bloom_contains(f, v::bigint)) FROM generate_series(1, 3) v) AS members_found,
       CASE WHEN (bloom_info(f)).over_ceiling THEN bloom_fpr(f) BETWEEN rate AND 1
            ELSE bloom_fpr_exact((bloom_info(f)).bits, 3, (bloom_info(f)).hashes) <= rate END AS rate_as_promised,
       f::text::bloomfilter = f AS text_round_trips
FROM edge_strict ORDER BY rate DESC, max_bits NULLS FIRST;
-- the same through partial states, combined (the distributed path)
CREATE AGGREGATE edge_partial_strict(bigint, float8, bigint) (SFUNC = bloom_fit_agg_trans, STYPE = bloomfilter);
CREATE AGGREGATE edge_merge(bloomfilter) (SFUNC = bloom_fit_agg_combine, STYPE = bloomfilter,
	FINALFUNC = bloom_fit_agg_final);
SELECT r AS rate,
       edge_merge(p::text::bloomfilter) = (SELECT bloom_fit_agg(v::bigint, r, 65536) FROM generate_series(1, 100) v) AS merged_identical
FROM unnest(ARRAY[1e-80, 1e-300]::float8[]) r,
     LATERAL (SELECT edge_partial_strict(v::bigint, r, 65536) AS p
              FROM generate_series(1, 100) v GROUP BY v % 3) s
GROUP BY r ORDER BY r DESC;

-- Counts from a union or intersection of fit filters of different sizes are
-- refused (22023): the smaller filter is tiled up to the larger size, so
-- 100 values united with 100,000 looked like 200,000 (a 95% interval that
-- missed the truth).  Such a value is flagged (fit_mixed in its text form);
-- its membership and bloom_fpr still answer, and equal sizes still estimate.
CREATE TABLE edge_sizes AS
SELECT (SELECT bloom_fit_agg(v::bigint) FROM generate_series(1, 100) v) AS small,
       (SELECT bloom_fit_agg(v::bigint) FROM generate_series(1000001, 1100000) v) AS large,
       (SELECT bloom_fit_agg(v::bigint) FROM generate_series(2000001, 2100000) v) AS other_large;
SELECT (bloom_info(small)).bits AS small_bits, (bloom_info(large)).bits AS large_bits,
       split_part((small | large)::text, ':', 3) AS union_scheme,
       split_part((small & large)::text, ':', 3) AS intersection_scheme,
       (small | large)::text::bloomfilter = (small | large) AS text_round_trips,
       (bloom_info(small | large)).estimated_items IS NULL AS union_estimate_null,
       (bloom_info(small | large)).over_ceiling AS union_over_ceiling,
       bloom_contains(small | large, 1::bigint) AND bloom_contains(small | large, 1100000::bigint) AS members_found,
       bloom_fpr(small | large) > 0 AS rate_reported,
       abs(bloom_cardinality(large | other_large) - 200000) < 2000 AS equal_sizes_estimate,
       split_part(((small | large) | other_large)::text, ':', 3) AS flag_kept
FROM edge_sizes;
\set VERBOSITY default
SELECT bloom_cardinality_bounds(small | large) FROM edge_sizes;
\set VERBOSITY terse
SELECT bloom_cardinality(small | large) FROM edge_sizes;
SELECT bloom_cardinality(small & large) FROM edge_sizes;
SELECT bloom_cardinality((SELECT bloom_union_agg(f) FROM (VALUES (small), (large)) s(f))) FROM edge_sizes;
SELECT bloom_union_cardinality(small | large, other_large) FROM edge_sizes;
SELECT bloom_intersection_cardinality(large, small | large) FROM edge_sizes;
SELECT bloom_jaccard(small | large, large) FROM edge_sizes;
-- the flags byte holds 0 to 3 (2: mixed sizes), each with its own spelling
SELECT 'bloom:v2:fit_mixed:none:k=7:m=64:seed=0:items=0:AAAAAAAAAAA='::bloomfilter::text;
SELECT 'bloom:v2:fit_over_ceiling_mixed:none:k=7:m=64:seed=0:items=0:AAAAAAAAAAA='::bloomfilter::text;
SELECT decode('02070004' || '0700' || '0000' || '00000000' || '4000000000000000' ||
              '0000000000000000' || '0000000000000000' || '0000000000000000', 'hex')::bloomfilter;
