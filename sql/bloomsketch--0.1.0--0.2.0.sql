-- bloomsketch 0.1.0 -> 0.2.0
\echo Use "ALTER EXTENSION bloomsketch UPDATE TO '0.2.0'" to load this file. \quit

-- Format version 2 hashes text as UTF-8 and structured values element by
-- element; the C library reads both versions, so no stored value changes.

-- An untyped literal ('alice') needs an overload of its own, since
-- anyelement cannot resolve an unknown-type literal.  0.1.0 gave it text
-- overloads, and PostgreSQL then picked those for citext too (citext casts
-- implicitly to text), so a citext constant was hashed as case-sensitive
-- text.  bloomsketch_literal replaces them: a string-category type with no
-- casts into it, so only an untyped literal or parameter resolves to it and
-- every typed value, citext included, reaches the anyelement functions.
DO $$
DECLARE
	dependents text;
BEGIN
	SELECT string_agg(DISTINCT pg_describe_object(d.classid, d.objid, d.objsubid), ', ')
	INTO dependents
	FROM pg_depend d
	WHERE d.deptype = 'n'
		AND NOT EXISTS (SELECT 1 FROM pg_depend m
						WHERE m.classid = d.classid AND m.objid = d.objid AND m.deptype = 'e')
		AND (d.refclassid, d.refobjid) IN (
		('pg_operator'::regclass, '@>(bloomfilter, text)'::regoperator),
		('pg_operator'::regclass, '<@(text, bloomfilter)'::regoperator),
		('pg_proc'::regclass, 'bloom_add(bloomfilter, text)'::regprocedure),
		('pg_proc'::regclass, 'bloom_contains(bloomfilter, text)'::regprocedure),
		('pg_proc'::regclass, 'bloom_contained_in(text, bloomfilter)'::regprocedure),
		('pg_proc'::regclass, 'cms_add(cmsketch, text, bigint)'::regprocedure),
		('pg_proc'::regclass, 'cms_estimate(cmsketch, text)'::regprocedure));
	IF dependents IS NOT NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'dependent_objects_still_exist',
			MESSAGE = 'bloomsketch 0.2.0 removes the text overloads that these objects use: ' || dependents,
			DETAIL = 'The text overloads were also chosen for citext values, which they hashed as case-sensitive text.',
			HINT = 'Drop those objects, run ALTER EXTENSION bloomsketch UPDATE again and recreate them: they will use the anyelement functions, which hash text the same way.';
	END IF;
END
$$;
DROP OPERATOR @> (bloomfilter, text);
DROP OPERATOR <@ (text, bloomfilter);
DROP FUNCTION bloom_add(bloomfilter, text);
DROP FUNCTION bloom_contains(bloomfilter, text);
DROP FUNCTION bloom_contained_in(text, bloomfilter);
DROP FUNCTION cms_add(cmsketch, text, bigint);
DROP FUNCTION cms_estimate(cmsketch, text);

CREATE TYPE bloomsketch_literal;
CREATE FUNCTION bloomsketch_literal_in(cstring) RETURNS bloomsketch_literal
	AS 'textin' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomsketch_literal_in(cstring) IS
	'input function of bloomsketch_literal (the text input function)';
CREATE FUNCTION bloomsketch_literal_out(bloomsketch_literal) RETURNS cstring
	AS 'textout' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomsketch_literal_out(bloomsketch_literal) IS
	'output function of bloomsketch_literal (the text output function)';
CREATE FUNCTION bloomsketch_literal_recv(internal) RETURNS bloomsketch_literal
	AS 'textrecv' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomsketch_literal_recv(internal) IS
	'binary input function of bloomsketch_literal (the text one)';
CREATE FUNCTION bloomsketch_literal_send(bloomsketch_literal) RETURNS bytea
	AS 'textsend' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloomsketch_literal_send(bloomsketch_literal) IS
	'binary output function of bloomsketch_literal (the text one)';
CREATE TYPE bloomsketch_literal (
	INPUT = bloomsketch_literal_in,
	OUTPUT = bloomsketch_literal_out,
	RECEIVE = bloomsketch_literal_recv,
	SEND = bloomsketch_literal_send,
	LIKE = text,
	CATEGORY = 'S'
);
COMMENT ON TYPE bloomsketch_literal IS
	'the type an untyped string literal takes in bloomsketch calls; hashed as text';

CREATE FUNCTION bloom_add(filter bloomfilter, value bloomsketch_literal) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_add(bloomfilter, bloomsketch_literal) IS
	'a copy of the filter with the untyped literal added as text';
CREATE FUNCTION bloom_contains(filter bloomfilter, value bloomsketch_literal) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10;
COMMENT ON FUNCTION bloom_contains(bloomfilter, bloomsketch_literal) IS
	'false if the untyped literal, as text, was surely never added; true if it probably was';
CREATE FUNCTION bloom_contained_in(value bloomsketch_literal, filter bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10;
COMMENT ON FUNCTION bloom_contained_in(bloomsketch_literal, bloomfilter) IS
	'bloom_contains with its arguments swapped (the function behind <@ for untyped literals)';
CREATE OPERATOR @> (LEFTARG = bloomfilter, RIGHTARG = bloomsketch_literal,
	FUNCTION = bloom_contains, COMMUTATOR = <@);
COMMENT ON OPERATOR @> (bloomfilter, bloomsketch_literal) IS
	'filter probably contains the untyped literal, as text (bloom_contains)';
CREATE OPERATOR <@ (LEFTARG = bloomsketch_literal, RIGHTARG = bloomfilter,
	FUNCTION = bloom_contained_in, COMMUTATOR = @>);
COMMENT ON OPERATOR <@ (bloomsketch_literal, bloomfilter) IS
	'the untyped literal, as text, is probably contained in filter (bloom_contains)';
CREATE FUNCTION cms_add(sketch cmsketch, value bloomsketch_literal, count bigint DEFAULT 1) RETURNS cmsketch
	AS 'MODULE_PATHNAME', 'cms_add' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION cms_add(cmsketch, bloomsketch_literal, bigint) IS
	'a copy of the sketch with count occurrences of the untyped literal added as text';
CREATE FUNCTION cms_estimate(sketch cmsketch, value bloomsketch_literal) RETURNS bigint
	AS 'MODULE_PATHNAME', 'cms_estimate' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10;
COMMENT ON FUNCTION cms_estimate(cmsketch, bloomsketch_literal) IS
	'estimated count of the untyped literal, as text: never below the true count';

-- Concrete-typed overloads of bloom_agg and cms_agg, so that Citus pushes
-- them down to its workers.  Its worker-side wrapper accepts an aggregate
-- only when the declared argument types equal the actual ones (anyelement
-- never does), and calls the transition function without fn_expr, so the
-- transition function must learn the value's type from its own declaration:
-- each overload gets its own transition function over the same C symbol.
-- The types are the usual column types, plus name and "char", which cast
-- implicitly to text ("char" would otherwise be ambiguous between text and
-- anyelement, name would be cast).  Values of other types still reach the
-- anyelement aggregates; a citext value reaches the text overload through
-- its implicit cast, which the C code refuses as anyelement refuses citext.
DO $$
DECLARE
	value_type text;
	args text;
	arg_names text;
	described text;
BEGIN
	FOREACH value_type IN ARRAY ARRAY['smallint', 'integer', 'bigint', 'numeric', 'real',
		'double precision', 'text', 'varchar', 'bpchar', 'name', '"char"', 'bytea', 'uuid', 'date',
		'timestamp', 'timestamptz', 'boolean']
	LOOP
		FOREACH args IN ARRAY ARRAY['capacity bigint', 'capacity bigint, fpr float8',
			'capacity bigint, fpr float8, scheme text']
		LOOP
			arg_names := regexp_replace(args, ' [a-z0-9]+(,|$)', '\1', 'g');
			EXECUTE format('CREATE FUNCTION bloom_agg_trans(state bloomfilter, value %s, %s) '
				'RETURNS bloomfilter AS %L, %L LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5',
				value_type, args, 'MODULE_PATHNAME', 'bloom_agg_trans');
			EXECUTE format('COMMENT ON FUNCTION bloom_agg_trans(bloomfilter, %s, %s) IS %L',
				value_type, args, format('transition function of bloom_agg(%s, %s): adds value to the state in place',
					value_type, arg_names));
			EXECUTE format('CREATE AGGREGATE bloom_agg(value %s, %s) (SFUNC = bloom_agg_trans, '
				'STYPE = bloomfilter, SSPACE = 119960, FINALFUNC = bloom_agg_final, '
				'COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE)', value_type, args);
			EXECUTE format('COMMENT ON AGGREGATE bloom_agg(%s, %s) IS %L', value_type, args,
				format('a bloomfilter of the non-NULL %s values (as bloom_agg(anyelement, %s)), '
					'typed so that Citus can push it down', value_type, arg_names));
		END LOOP;
		FOREACH args IN ARRAY ARRAY['', ', epsilon float8, delta float8', ', count bigint',
			', count bigint, epsilon float8, delta float8']
		LOOP
			arg_names := regexp_replace(args, ' [a-z0-9]+(,|$)', '\1', 'g');
			EXECUTE format('CREATE FUNCTION cms_agg_trans(state cmsketch, value %s%s) '
				'RETURNS cmsketch AS %L, %L LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5',
				value_type, args, 'MODULE_PATHNAME', 'cms_agg_trans');
			EXECUTE format('COMMENT ON FUNCTION cms_agg_trans(cmsketch, %s%s) IS %L',
				value_type, args, format('transition function of cms_agg(%s%s): adds the value to the state in place',
					value_type, arg_names));
			EXECUTE format('CREATE AGGREGATE cms_agg(value %s%s) (SFUNC = cms_agg_trans, '
				'STYPE = cmsketch, SSPACE = 304512, COMBINEFUNC = cms_merge_trans, '
				'PARALLEL = SAFE)', value_type, args);
			EXECUTE format('COMMENT ON AGGREGATE cms_agg(%s%s) IS %L', value_type, args,
				format('a cmsketch of the non-NULL %s values (as cms_agg(anyelement%s)), '
					'typed so that Citus can push it down', value_type, arg_names));
		END LOOP;
	END LOOP;
END
$$;

-- Over a type without a concrete overload (arrays, ranges, composites, jsonb,
-- time, interval, inet...) the anyelement aggregates are used, and Citus
-- would push them down too, to fail on every worker (see above).  Without a
-- combine function Citus gathers their rows to the coordinator instead and
-- aggregates them there, which gives the right filter.  The price: a single
-- server no longer aggregates these types in parallel workers.  OR REPLACE
-- keeps the aggregates' identity, so views that use them stay valid.
DO $$
DECLARE
	args text;
BEGIN
	FOREACH args IN ARRAY ARRAY['capacity bigint', 'capacity bigint, fpr float8',
		'capacity bigint, fpr float8, scheme text']
	LOOP
		EXECUTE format('CREATE OR REPLACE AGGREGATE bloom_agg(value anyelement, %s) ('
			'SFUNC = bloom_agg_trans, STYPE = bloomfilter, SSPACE = 119960, '
			'FINALFUNC = bloom_agg_final, PARALLEL = SAFE)', args);
	END LOOP;
	FOREACH args IN ARRAY ARRAY['', ', epsilon float8, delta float8', ', count bigint',
		', count bigint, epsilon float8, delta float8']
	LOOP
		EXECUTE format('CREATE OR REPLACE AGGREGATE cms_agg(value anyelement%s) ('
			'SFUNC = cms_agg_trans, STYPE = cmsketch, SSPACE = 304512, PARALLEL = SAFE)', args);
	END LOOP;
END
$$;

-- The double-hashing and partition schemes' rates include Kirsch and
-- Mitzenmacher's Theta(1/n) term (docs/schemes.md).
COMMENT ON FUNCTION bloom_fpr(bloomfilter) IS
	'false-positive rate of the filter as it is now, from its set bits (for the double-hashing and partition schemes times the factor of Kirsch and Mitzenmacher''s Theta(1/n) term at the estimated item count)';
COMMENT ON FUNCTION bloom_expected_fpr(bigint, bigint, integer, text) IS
	'expected false-positive rate of a filter of the probing scheme with bits, items and hashes, under that scheme''s model (with Kirsch and Mitzenmacher''s Theta(1/n) term for the double-hashing and partition schemes)';

-- ---------------------------------------------------------------------------
-- Self-sized filters: bloom_fit_agg (docs/fit.md)
-- ---------------------------------------------------------------------------

-- bloom_info reports whether a self-sized filter's values exceeded its
-- ceiling (its current_fpr is then above the rate asked for).
DROP FUNCTION bloom_info(bloomfilter);
CREATE FUNCTION bloom_info(filter bloomfilter,
	OUT bits bigint, OUT hashes integer, OUT seed bigint, OUT scheme text,
	OUT family text, OUT bits_set bigint, OUT items_added bigint, OUT bytes bigint,
	OUT format_version integer, OUT estimated_items float8, OUT current_fpr float8,
	OUT over_ceiling boolean)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_info(bloomfilter) IS
	'parameters, fill and estimates of a bloomfilter: bits (m), hashes (k), seed, scheme, family, bits_set, items_added, bytes, format_version, estimated_items, current_fpr, and over_ceiling (a self-sized filter whose values exceeded its max_bits; false for every other filter)';

-- Strict: the executor makes the first partial state the state; the C
-- function merges the other's hashes or bits into it.
CREATE FUNCTION bloom_fit_agg_combine(state bloomfilter, other bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION bloom_fit_agg_combine(bloomfilter, bloomfilter) IS
	'combine function of bloom_fit_agg: the union of two partial states';

CREATE FUNCTION bloom_fit_agg_final(state bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_fit_agg_final(bloomfilter) IS
	'final function of bloom_fit_agg: the group''s filter at the smallest power-of-two size that meets the rate';

-- The anyelement forms and, as for bloom_agg, concrete-typed overloads with
-- a combine function that Citus pushes down (the anyelement forms have
-- none: see bloom_agg above).  SSPACE is a group of 1,024 distinct values
-- kept as hashes (16 bytes each), a typical middle; a group costs 16 bytes
-- per distinct value up to the ceiling's bit array (default 16 MB).
DO $$
DECLARE
	value_type text;
	args text;
	arg_names text;
	combine text;
BEGIN
	FOREACH value_type IN ARRAY ARRAY['anyelement', 'smallint', 'integer', 'bigint', 'numeric',
		'real', 'double precision', 'text', 'varchar', 'bpchar', 'name', '"char"', 'bytea', 'uuid',
		'date', 'timestamp', 'timestamptz', 'boolean']
	LOOP
		FOREACH args IN ARRAY ARRAY['', ', fpr float8', ', fpr float8, max_bits bigint']
		LOOP
			arg_names := regexp_replace(args, ' [a-z0-9_]+(,|$)', '\1', 'g');
			combine := CASE WHEN value_type = 'anyelement' THEN ''
				ELSE 'COMBINEFUNC = bloom_fit_agg_combine, ' END;
			EXECUTE format('CREATE FUNCTION bloom_fit_agg_trans(state bloomfilter, value %s%s) '
				'RETURNS bloomfilter AS %L, %L LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5',
				value_type, args, 'MODULE_PATHNAME', 'bloom_fit_agg_trans');
			EXECUTE format('COMMENT ON FUNCTION bloom_fit_agg_trans(bloomfilter, %s%s) IS %L',
				value_type, args, format('transition function of bloom_fit_agg(%s%s): adds the value''s hash to the state',
					value_type, arg_names));
			EXECUTE format('CREATE AGGREGATE bloom_fit_agg(value %s%s) (SFUNC = bloom_fit_agg_trans, '
				'STYPE = bloomfilter, SSPACE = 16440, FINALFUNC = bloom_fit_agg_final, %s'
				'PARALLEL = SAFE)', value_type, args, combine);
			EXECUTE format('COMMENT ON AGGREGATE bloom_fit_agg(%s%s) IS %L', value_type, args,
				format('a bloomfilter of the non-NULL %s values sized for the distinct values received%s',
					CASE WHEN value_type = 'anyelement' THEN '' ELSE value_type END,
					CASE args WHEN '' THEN ' at a 1%% false-positive rate'
						WHEN ', fpr float8' THEN ' at false-positive rate fpr'
						ELSE ' at false-positive rate fpr, never larger than max_bits' END));
		END LOOP;
	END LOOP;
END
$$;
