-- bloomsketch 0.1.0 -> 0.2.0
\echo Use "ALTER EXTENSION bloomsketch UPDATE TO '0.2.0'" to load this file. \quit

-- Format version 2 hashes text as UTF-8 and structured values element by
-- element; the C library reads both versions, so no stored value changes.
-- The input functions' comments name the text form the output now writes
-- (extension_metadata checks them against a freshly built value).
COMMENT ON FUNCTION bloomfilter_in(cstring) IS
	'text input of bloomfilter: bloom:v2:<scheme>:<family>:k=..:m=..:seed=..:items=..:<base64 bits> (v1 is read too)';
COMMENT ON FUNCTION cmsketch_in(cstring) IS
	'text input of cmsketch: cms:v2:<family>:w=..:d=..:copies=..:seed=..:total=..:<base64 counters> (v1 is read too)';

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
	SELECT pg_catalog.string_agg(DISTINCT pg_catalog.pg_describe_object(d.classid, d.objid, d.objsubid), ', ')
	INTO dependents
	FROM pg_catalog.pg_depend d
	WHERE d.deptype OPERATOR(pg_catalog.=) 'n'
		AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_depend m
						WHERE m.classid OPERATOR(pg_catalog.=) d.classid
							AND m.objid OPERATOR(pg_catalog.=) d.objid
							AND m.deptype OPERATOR(pg_catalog.=) 'e')
		AND (d.refclassid, d.refobjid) IN (
		('pg_operator'::regclass::pg_catalog.oid, '@>(bloomfilter, text)'::regoperator::pg_catalog.oid),
		('pg_operator'::regclass::pg_catalog.oid, '<@(text, bloomfilter)'::regoperator::pg_catalog.oid),
		('pg_proc'::regclass::pg_catalog.oid, 'bloom_add(bloomfilter, text)'::regprocedure::pg_catalog.oid),
		('pg_proc'::regclass::pg_catalog.oid, 'bloom_contains(bloomfilter, text)'::regprocedure::pg_catalog.oid),
		('pg_proc'::regclass::pg_catalog.oid, 'bloom_contained_in(text, bloomfilter)'::regprocedure::pg_catalog.oid),
		('pg_proc'::regclass::pg_catalog.oid, 'cms_add(cmsketch, text, bigint)'::regprocedure::pg_catalog.oid),
		('pg_proc'::regclass::pg_catalog.oid, 'cms_estimate(cmsketch, text)'::regprocedure::pg_catalog.oid));
	IF dependents IS NOT NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'dependent_objects_still_exist',
			MESSAGE = 'bloomsketch 0.2.0 removes the text overloads that these objects use: '
				OPERATOR(pg_catalog.||) dependents,
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
			arg_names := pg_catalog.regexp_replace(args, ' [a-z0-9]+(,|$)', '\1', 'g');
			EXECUTE pg_catalog.format('CREATE FUNCTION bloom_agg_trans(state bloomfilter, value %s, %s) '
				'RETURNS bloomfilter AS %L, %L LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5',
				value_type, args, 'MODULE_PATHNAME', 'bloom_agg_trans');
			EXECUTE pg_catalog.format('COMMENT ON FUNCTION bloom_agg_trans(bloomfilter, %s, %s) IS %L',
				value_type, args, pg_catalog.format('transition function of bloom_agg(%s, %s): adds value to the state in place',
					value_type, arg_names));
			EXECUTE pg_catalog.format('CREATE AGGREGATE bloom_agg(value %s, %s) (SFUNC = bloom_agg_trans, '
				'STYPE = bloomfilter, SSPACE = 119960, FINALFUNC = bloom_agg_final, '
				'COMBINEFUNC = bloom_union_trans, PARALLEL = SAFE)', value_type, args);
			EXECUTE pg_catalog.format('COMMENT ON AGGREGATE bloom_agg(%s, %s) IS %L', value_type, args,
				pg_catalog.format('a bloomfilter of the non-NULL %s values (as bloom_agg(anyelement, %s)), '
					'typed so that Citus can push it down', value_type, arg_names));
		END LOOP;
		FOREACH args IN ARRAY ARRAY['', ', epsilon float8, delta float8', ', count bigint',
			', count bigint, epsilon float8, delta float8']
		LOOP
			arg_names := pg_catalog.regexp_replace(args, ' [a-z0-9]+(,|$)', '\1', 'g');
			EXECUTE pg_catalog.format('CREATE FUNCTION cms_agg_trans(state cmsketch, value %s%s) '
				'RETURNS cmsketch AS %L, %L LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5',
				value_type, args, 'MODULE_PATHNAME', 'cms_agg_trans');
			EXECUTE pg_catalog.format('COMMENT ON FUNCTION cms_agg_trans(cmsketch, %s%s) IS %L',
				value_type, args, pg_catalog.format('transition function of cms_agg(%s%s): adds the value to the state in place',
					value_type, arg_names));
			EXECUTE pg_catalog.format('CREATE AGGREGATE cms_agg(value %s%s) (SFUNC = cms_agg_trans, '
				'STYPE = cmsketch, SSPACE = 304512, COMBINEFUNC = cms_merge_trans, '
				'PARALLEL = SAFE)', value_type, args);
			EXECUTE pg_catalog.format('COMMENT ON AGGREGATE cms_agg(%s%s) IS %L', value_type, args,
				pg_catalog.format('a cmsketch of the non-NULL %s values (as cms_agg(anyelement%s)), '
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
		EXECUTE pg_catalog.format('CREATE OR REPLACE AGGREGATE bloom_agg(value anyelement, %s) ('
			'SFUNC = bloom_agg_trans, STYPE = bloomfilter, SSPACE = 119960, '
			'FINALFUNC = bloom_agg_final, PARALLEL = SAFE)', args);
	END LOOP;
	FOREACH args IN ARRAY ARRAY['', ', epsilon float8, delta float8', ', count bigint',
		', count bigint, epsilon float8, delta float8']
	LOOP
		EXECUTE pg_catalog.format('CREATE OR REPLACE AGGREGATE cms_agg(value anyelement%s) ('
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
	'final function of bloom_fit_agg: the group''s filter at the smallest power-of-two size whose expected rate for its distinct values meets the rate';

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
			arg_names := pg_catalog.regexp_replace(args, ' [a-z0-9_]+(,|$)', '\1', 'g');
			combine := CASE WHEN value_type OPERATOR(pg_catalog.=) 'anyelement' THEN ''
				ELSE 'COMBINEFUNC = bloom_fit_agg_combine, ' END;
			EXECUTE pg_catalog.format('CREATE FUNCTION bloom_fit_agg_trans(state bloomfilter, value %s%s) '
				'RETURNS bloomfilter AS %L, %L LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5',
				value_type, args, 'MODULE_PATHNAME', 'bloom_fit_agg_trans');
			EXECUTE pg_catalog.format('COMMENT ON FUNCTION bloom_fit_agg_trans(bloomfilter, %s%s) IS %L',
				value_type, args, pg_catalog.format('transition function of bloom_fit_agg(%s%s): adds the value''s hash to the state',
					value_type, arg_names));
			EXECUTE pg_catalog.format('CREATE AGGREGATE bloom_fit_agg(value %s%s) (SFUNC = bloom_fit_agg_trans, '
				'STYPE = bloomfilter, SSPACE = 16440, FINALFUNC = bloom_fit_agg_final, %s'
				'PARALLEL = SAFE)', value_type, args, combine);
			EXECUTE pg_catalog.format('COMMENT ON AGGREGATE bloom_fit_agg(%s%s) IS %L', value_type, args,
				pg_catalog.format('a bloomfilter of the non-NULL %s values sized for the distinct values received%s',
					CASE WHEN value_type OPERATOR(pg_catalog.=) 'anyelement' THEN '' ELSE value_type END,
					CASE WHEN args OPERATOR(pg_catalog.=) '' THEN ' at a 1%% false-positive rate'
						WHEN args OPERATOR(pg_catalog.=) ', fpr float8' THEN ' at false-positive rate fpr'
						ELSE ' at false-positive rate fpr, never larger than max_bits' END));
		END LOOP;
	END LOOP;
END
$$;

-- ---------------------------------------------------------------------------
-- The topksketch type: the most frequent values of a column, with bounds
-- that survive merging (docs/topk.md)
-- ---------------------------------------------------------------------------

CREATE TYPE topksketch;

CREATE FUNCTION topksketch_in(cstring) RETURNS topksketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
CREATE FUNCTION topksketch_out(topksketch) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
CREATE FUNCTION topksketch_recv(internal) RETURNS topksketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
CREATE FUNCTION topksketch_send(topksketch) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;

CREATE TYPE topksketch (
	INPUT = topksketch_in,
	OUTPUT = topksketch_out,
	RECEIVE = topksketch_recv,
	SEND = topksketch_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = extended
);

COMMENT ON TYPE topksketch IS
	'heavy-hitters summary (Misra-Gries, mergeable): the most frequent values with bounds on their counts';
COMMENT ON FUNCTION topksketch_in(cstring) IS
	'text input of topksketch: topk:v1:<family>:counters=..:entries=..:total=..:error=..:bytes=..:<base64 entries>';
COMMENT ON FUNCTION topksketch_out(topksketch) IS
	'text output of topksketch, the exact inverse of its input';
COMMENT ON FUNCTION topksketch_recv(internal) IS
	'binary input of topksketch (little-endian serialized form), validated';
COMMENT ON FUNCTION topksketch_send(topksketch) IS
	'binary output of topksketch (little-endian serialized form)';

CREATE FUNCTION topksketch_to_bytea(topksketch) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
CREATE FUNCTION topksketch_from_bytea(bytea) RETURNS topksketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
CREATE CAST (topksketch AS bytea) WITH FUNCTION topksketch_to_bytea(topksketch);
CREATE CAST (bytea AS topksketch) WITH FUNCTION topksketch_from_bytea(bytea);
COMMENT ON FUNCTION topksketch_to_bytea(topksketch) IS
	'the serialized bytes of a topksketch (40-byte little-endian header, then the entries)';
COMMENT ON FUNCTION topksketch_from_bytea(bytea) IS
	'a topksketch from its serialized bytes, validated like binary input';
COMMENT ON CAST (topksketch AS bytea) IS
	'the serialized bytes of a topksketch';
COMMENT ON CAST (bytea AS topksketch) IS
	'a topksketch from its serialized bytes, validated';

CREATE FUNCTION topk_items(summary topksketch)
	RETURNS TABLE (value text, count bigint, lower_bound bigint, upper_bound bigint)
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE COST 100 ROWS 100;
COMMENT ON FUNCTION topk_items(topksketch) IS
	'the listed values, best first, in their type''s text form (as the session prints it; numeric and family other: as written under fixed settings): count, the occurrences counted (never above the true count, as lower_bound), and upper_bound (never below it)';

-- Stable, as topk_items: the keys are the values' texts as the session prints them.
CREATE FUNCTION topksketch_to_jsonb(summary topksketch) RETURNS jsonb
	AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION topksketch_to_jsonb(topksketch) IS
	'the listed values as a jsonb object of their texts and counts, the form postgresql-topn keeps (so topn(jsonb, n) reads it)';
CREATE CAST (topksketch AS jsonb) WITH FUNCTION topksketch_to_jsonb(topksketch);
COMMENT ON CAST (topksketch AS jsonb) IS
	'the listed values and their counts as a jsonb object (topksketch_to_jsonb)';

CREATE FUNCTION topk_total(summary topksketch) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION topk_total(topksketch) IS
	'the number of non-NULL values the summary counted';

CREATE FUNCTION topk_info(summary topksketch,
	OUT counters integer, OUT entries integer, OUT total bigint, OUT max_error bigint,
	OUT error_bound float8, OUT family text, OUT bytes bigint, OUT format_version integer)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION topk_info(topksketch) IS
	'parameters of a topksketch: counters (c), entries listed, total (N), max_error (an unlisted value occurs at most this often; a listed one at most this much above its lower bound), error_bound (N/(c+1), which max_error never exceeds), family, bytes, format_version';

CREATE FUNCTION topk_merge(a topksketch, b topksketch) RETURNS topksketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION topk_merge(topksketch, topksketch) IS
	'the summary of both streams (the merge of Agarwal et al.); both must have the same counters and family';
CREATE OPERATOR + (
	LEFTARG = topksketch,
	RIGHTARG = topksketch,
	FUNCTION = topk_merge,
	COMMUTATOR = +
);
COMMENT ON OPERATOR + (topksketch, topksketch) IS 'merge of two summaries (topk_merge)';

-- Not strict: the first non-NULL value creates the state; later ones are
-- counted into it in place.
CREATE FUNCTION topk_agg_trans(state topksketch, value anyelement, k integer)
	RETURNS topksketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5;
COMMENT ON FUNCTION topk_agg_trans(topksketch, anyelement, integer) IS
	'transition function of topk_agg(value, k): counts the value into the state in place';
CREATE FUNCTION topk_agg_trans(state topksketch, value anyelement, k integer, epsilon float8)
	RETURNS topksketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5;
COMMENT ON FUNCTION topk_agg_trans(topksketch, anyelement, integer, float8) IS
	'transition function of topk_agg(value, k, epsilon): counts the value into the state in place';

-- topk_weighted_agg counts each value `count` times (pre-aggregated rows, as
-- cms_agg(value, count)).  A name of its own: topk_agg(value, count, k)
-- would be ambiguous with topk_agg(value, k, epsilon) for integer literals.
CREATE FUNCTION topk_weighted_agg_trans(state topksketch, value anyelement, count bigint,
	k integer) RETURNS topksketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5;
COMMENT ON FUNCTION topk_weighted_agg_trans(topksketch, anyelement, bigint, integer) IS
	'transition function of topk_weighted_agg(value, count, k): counts the value count times into the state in place';
CREATE FUNCTION topk_weighted_agg_trans(state topksketch, value anyelement, count bigint,
	k integer, epsilon float8) RETURNS topksketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5;
COMMENT ON FUNCTION topk_weighted_agg_trans(topksketch, anyelement, bigint, integer, float8) IS
	'transition function of topk_weighted_agg(value, count, k, epsilon): counts the value count times into the state in place';

-- Strict, so the first non-NULL input becomes the state; later ones are
-- merged into it in place.
CREATE FUNCTION topk_merge_trans(state topksketch, summary topksketch) RETURNS topksketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION topk_merge_trans(topksketch, topksketch) IS
	'transition and combine function of topk_merge_agg, combine function of topk_agg: merges a summary into the state in place';
CREATE FUNCTION topk_agg_final(state topksketch) RETURNS topksketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION topk_agg_final(topksketch) IS
	'final function of topk_agg and topk_merge_agg: the summary in its stored form';

-- As for bloom_agg and cms_agg: the anyelement aggregates have no combine
-- function (Citus would push them down to fail on its workers), and
-- concrete-typed overloads, which Citus pushes down, have one.
CREATE AGGREGATE topk_agg(value anyelement, k integer) (
	SFUNC = topk_agg_trans, STYPE = topksketch, SSPACE = 18432,
	FINALFUNC = topk_agg_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE topk_agg(anyelement, integer) IS
	'a topksketch of the non-NULL values with k counters: lists every value occurring more than N/(k+1) times';
CREATE AGGREGATE topk_agg(value anyelement, k integer, epsilon float8) (
	SFUNC = topk_agg_trans, STYPE = topksketch, SSPACE = 18432,
	FINALFUNC = topk_agg_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE topk_agg(anyelement, integer, float8) IS
	'a topksketch of the non-NULL values with max(k, ceil(1/epsilon) - 1) counters: lists every value occurring more than epsilon N times';
CREATE AGGREGATE topk_weighted_agg(value anyelement, count bigint, k integer) (
	SFUNC = topk_weighted_agg_trans, STYPE = topksketch, SSPACE = 18432,
	FINALFUNC = topk_agg_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE topk_weighted_agg(anyelement, bigint, integer) IS
	'a topksketch with k counters of the non-NULL values, each counted count times (rows with a NULL count skipped)';
CREATE AGGREGATE topk_weighted_agg(value anyelement, count bigint, k integer, epsilon float8) (
	SFUNC = topk_weighted_agg_trans, STYPE = topksketch, SSPACE = 18432,
	FINALFUNC = topk_agg_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE topk_weighted_agg(anyelement, bigint, integer, float8) IS
	'a topksketch with max(k, ceil(1/epsilon) - 1) counters of the non-NULL values, each counted count times';
DO $$
DECLARE
	value_type text;
	args text;
	arg_names text;
	agg text;
BEGIN
	FOREACH value_type IN ARRAY ARRAY['smallint', 'integer', 'bigint', 'numeric', 'real',
		'double precision', 'text', 'varchar', 'bpchar', 'name', '"char"', 'bytea', 'uuid', 'date',
		'timestamp', 'timestamptz', 'boolean']
	LOOP
		FOREACH args IN ARRAY ARRAY['k integer', 'k integer, epsilon float8',
			'count bigint, k integer', 'count bigint, k integer, epsilon float8']
		LOOP
			arg_names := pg_catalog.regexp_replace(args, ' [a-z0-9]+(,|$)', '\1', 'g');
			agg := CASE WHEN args LIKE 'count%' THEN 'topk_weighted_agg' ELSE 'topk_agg' END;
			EXECUTE pg_catalog.format('CREATE FUNCTION %s_trans(state topksketch, value %s, %s) '
				'RETURNS topksketch AS %L, %L LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5',
				agg, value_type, args, 'MODULE_PATHNAME', agg || '_trans');
			EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s_trans(topksketch, %s, %s) IS %L',
				agg, value_type, args, pg_catalog.format('transition function of %s(%s, %s): counts the value into the state in place',
					agg, value_type, arg_names));
			EXECUTE pg_catalog.format('CREATE AGGREGATE %s(value %s, %s) (SFUNC = %s_trans, '
				'STYPE = topksketch, SSPACE = 18432, FINALFUNC = topk_agg_final, '
				'COMBINEFUNC = topk_merge_trans, PARALLEL = SAFE)', agg, value_type, args, agg);
			EXECUTE pg_catalog.format('COMMENT ON AGGREGATE %s(%s, %s) IS %L', agg, value_type, args,
				pg_catalog.format('a topksketch of the non-NULL %s values (as %s(anyelement, %s)), '
					'typed so that Citus can push it down', value_type, agg, arg_names));
		END LOOP;
	END LOOP;
END
$$;

CREATE AGGREGATE topk_merge_agg(topksketch) (
	SFUNC = topk_merge_trans, STYPE = topksketch, SSPACE = 18432,
	FINALFUNC = topk_agg_final, COMBINEFUNC = topk_merge_trans, PARALLEL = SAFE);
COMMENT ON AGGREGATE topk_merge_agg(topksketch) IS
	'merge of the non-NULL summaries (the merge of Agarwal et al.); NULL when there are none';

CREATE FUNCTION topksketch_eq(topksketch, topksketch) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION topksketch_ne(topksketch, topksketch) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION topksketch_lt(topksketch, topksketch) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION topksketch_le(topksketch, topksketch) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION topksketch_gt(topksketch, topksketch) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION topksketch_ge(topksketch, topksketch) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION topksketch_cmp(topksketch, topksketch) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION topksketch_hash(topksketch) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION topksketch_hash_extended(topksketch, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION topksketch_eq(topksketch, topksketch) IS 'equal counters, values, counts and texts';
COMMENT ON FUNCTION topksketch_ne(topksketch, topksketch) IS 'different counters, values, counts or texts';
COMMENT ON FUNCTION topksketch_lt(topksketch, topksketch) IS 'btree order: header fields, then entries';
COMMENT ON FUNCTION topksketch_le(topksketch, topksketch) IS 'btree order: header fields, then entries';
COMMENT ON FUNCTION topksketch_gt(topksketch, topksketch) IS 'btree order: header fields, then entries';
COMMENT ON FUNCTION topksketch_ge(topksketch, topksketch) IS 'btree order: header fields, then entries';
COMMENT ON FUNCTION topksketch_cmp(topksketch, topksketch) IS 'btree support function for topksketch';
COMMENT ON FUNCTION topksketch_hash(topksketch) IS 'hash support function for topksketch';
COMMENT ON FUNCTION topksketch_hash_extended(topksketch, bigint) IS 'seeded hash support function for topksketch';

CREATE OPERATOR = (
	LEFTARG = topksketch, RIGHTARG = topksketch, FUNCTION = topksketch_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = topksketch, RIGHTARG = topksketch, FUNCTION = topksketch_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = topksketch, RIGHTARG = topksketch, FUNCTION = topksketch_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = topksketch, RIGHTARG = topksketch, FUNCTION = topksketch_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = topksketch, RIGHTARG = topksketch, FUNCTION = topksketch_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = topksketch, RIGHTARG = topksketch, FUNCTION = topksketch_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR = (topksketch, topksketch) IS 'equal counters, values, counts and texts';
COMMENT ON OPERATOR <> (topksketch, topksketch) IS 'different counters, values, counts or texts';
COMMENT ON OPERATOR < (topksketch, topksketch) IS 'btree order (for sorting only)';
COMMENT ON OPERATOR <= (topksketch, topksketch) IS 'btree order (for sorting only)';
COMMENT ON OPERATOR > (topksketch, topksketch) IS 'btree order (for sorting only)';
COMMENT ON OPERATOR >= (topksketch, topksketch) IS 'btree order (for sorting only)';

CREATE OPERATOR CLASS topksketch_ops DEFAULT FOR TYPE topksketch USING btree AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 topksketch_cmp(topksketch, topksketch);
COMMENT ON OPERATOR CLASS topksketch_ops USING btree IS 'btree operator class for topksketch';
CREATE OPERATOR CLASS topksketch_hash_ops DEFAULT FOR TYPE topksketch USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 topksketch_hash(topksketch),
	FUNCTION 2 topksketch_hash_extended(topksketch, bigint);
COMMENT ON OPERATOR CLASS topksketch_hash_ops USING hash IS 'hash operator class for topksketch';
COMMENT ON OPERATOR FAMILY topksketch_ops USING btree IS 'btree operator family of topksketch';
COMMENT ON OPERATOR FAMILY topksketch_hash_ops USING hash IS 'hash operator family of topksketch';

-- A partial state of bloom_fit_agg is refused by every function but that
-- aggregate's own (22023), also when it is the only filter of a
-- bloom_union_agg or bloom_intersect_agg group: as strict functions the
-- transition functions would never see it, PostgreSQL taking the group's
-- first filter as the state unread.  Called with a NULL they skip it, as the
-- strict forms did.
ALTER FUNCTION bloom_union_trans(bloomfilter, bloomfilter) CALLED ON NULL INPUT;
ALTER FUNCTION bloom_intersect_trans(bloomfilter, bloomfilter) CALLED ON NULL INPUT;

-- ---------------------------------------------------------------------------
-- citext: refused however it arrives
-- ---------------------------------------------------------------------------

-- A citext value reaches the concrete text overloads of the aggregates
-- through its implicit cast to text, and the planner then drops every trace
-- of citext: a cast to citext in a view, a citext constant or a custom
-- plan's parameter become plain text before any transition function runs.
-- So while the citext extension is installed, bloomsketch keeps an overload
-- of each of those aggregates for citext itself, which PostgreSQL prefers
-- for citext values and domains over citext, and whose transition function
-- (the C one, told its type by its declaration) refuses them with 0A000 as
-- anyelement does.  On Citus they refuse on the workers too.  They belong to
-- bloomsketch, so pg_dump leaves them to CREATE EXTENSION; this script adds
-- them when citext is there already, an event trigger when citext comes
-- later, and another removes them before a DROP that could take citext, so
-- that DROP EXTENSION citext needs no CASCADE (which would otherwise take
-- bloomsketch with it).  Citus's propagation of DDL is off inside: each node
-- runs its own triggers.
CREATE FUNCTION bloomsketch_citext_overloads(wanted boolean) RETURNS void
	LANGUAGE plpgsql SECURITY DEFINER
	SET search_path = pg_catalog, pg_temp
	SET citus.enable_ddl_propagation = off
AS $$
DECLARE
	citext regtype;
	ext oid;
	nsp text;
	agg record;
	args text;
	value_types text;
	trans regprocedure;
	aggregate text;
BEGIN
	SELECT e.oid, quote_ident(n.nspname) INTO ext, nsp
	FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
	WHERE e.extname = 'bloomsketch';
	SELECT t.oid INTO citext
	FROM pg_type t JOIN pg_depend d ON d.classid = 'pg_type'::regclass AND d.objid = t.oid
		AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
	JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'citext'
	WHERE t.typname = 'citext';
	IF citext IS NULL THEN
		RETURN;
	END IF;
	FOR agg IN SELECT * FROM (VALUES
		('bloom_agg', 'bloomfilter', 'bloom_agg_trans', 'bloom_agg_final', 'bloom_union_trans',
			ARRAY[', capacity bigint', ', capacity bigint, fpr float8',
				', capacity bigint, fpr float8, scheme text']),
		('cms_agg', 'cmsketch', 'cms_agg_trans', NULL, 'cms_merge_trans',
			ARRAY['', ', epsilon float8, delta float8', ', count bigint',
				', count bigint, epsilon float8, delta float8']),
		('bloom_fit_agg', 'bloomfilter', 'bloom_fit_agg_trans', 'bloom_fit_agg_final',
			'bloom_fit_agg_combine', ARRAY['', ', fpr float8', ', fpr float8, max_bits bigint']),
		('topk_agg', 'topksketch', 'topk_agg_trans', 'topk_agg_final', 'topk_merge_trans',
			ARRAY[', k integer', ', k integer, epsilon float8']),
		('topk_weighted_agg', 'topksketch', 'topk_weighted_agg_trans', 'topk_agg_final',
			'topk_merge_trans', ARRAY[', count bigint, k integer',
				', count bigint, k integer, epsilon float8'])
	) a(name, stype, trans, final, combine, forms)
	LOOP
		FOREACH args IN ARRAY agg.forms
		LOOP
			value_types := citext || regexp_replace(args, ', [a-z_]+ ', ', ', 'g');
			aggregate := format('%s.%s(%s)', nsp, agg.name, value_types);
			trans := to_regprocedure(format('%s.%s(%s.%s, %s)', nsp, agg.trans, nsp, agg.stype,
				value_types));
			IF wanted AND to_regprocedure(aggregate) IS NULL THEN
				EXECUTE format('CREATE FUNCTION %s.%s(state %s.%s, value %s%s) RETURNS %s.%s '
					'AS %L, %L LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5',
					nsp, agg.trans, nsp, agg.stype, citext, args, nsp, agg.stype,
					'MODULE_PATHNAME', agg.trans);
				trans := to_regprocedure(format('%s.%s(%s.%s, %s)', nsp, agg.trans, nsp,
					agg.stype, value_types));
				EXECUTE format('COMMENT ON FUNCTION %s IS %L', trans,
					format('transition function of %s over citext: refuses the value', agg.name));
				EXECUTE format('CREATE AGGREGATE %s.%s(value %s%s) (SFUNC = %s, STYPE = %s.%s, '
					'%sCOMBINEFUNC = %s.%s, PARALLEL = SAFE)', nsp, agg.name, citext, args,
					trans::regproc, nsp, agg.stype,
					CASE WHEN agg.final IS NULL THEN '' ELSE format('FINALFUNC = %s.%s, ', nsp, agg.final) END,
					nsp, agg.combine);
				EXECUTE format('COMMENT ON AGGREGATE %s IS %L', aggregate,
					format('refuses citext values, which %s over text would hash case-sensitively: aggregate lower(value)::text instead',
						agg.name));
			END IF;
			IF to_regprocedure(aggregate) IS NULL THEN
				CONTINUE;
			END IF;
			-- Inside CREATE or ALTER EXTENSION they are members already.
			-- Only objects of this function's owner (bloomsketch's) join the
			-- extension, and only members leave it: same-named objects that
			-- someone else put in the schema are neither adopted nor dropped.
			IF wanted AND NOT EXISTS (SELECT FROM pg_depend WHERE classid = 'pg_proc'::regclass
					AND objid = trans AND refobjid = ext AND deptype = 'e')
				AND (SELECT count(*) FROM pg_proc p JOIN pg_roles r ON r.oid = p.proowner
					WHERE p.oid IN (trans, to_regprocedure(aggregate)) AND r.rolname = current_user) = 2 THEN
				EXECUTE format('ALTER EXTENSION bloomsketch ADD FUNCTION %s', trans);
				EXECUTE format('ALTER EXTENSION bloomsketch ADD AGGREGATE %s', aggregate);
			ELSIF NOT wanted AND EXISTS (SELECT FROM pg_depend WHERE classid = 'pg_proc'::regclass
					AND objid = to_regprocedure(aggregate) AND refobjid = ext AND deptype = 'e') THEN
				EXECUTE format('ALTER EXTENSION bloomsketch DROP AGGREGATE %s', aggregate);
				EXECUTE format('ALTER EXTENSION bloomsketch DROP FUNCTION %s', trans);
				-- a view that uses one keeps it, outside the extension, so
				-- that a DROP of citext names the view and its CASCADE takes
				-- the view, not bloomsketch
				BEGIN
					EXECUTE format('DROP AGGREGATE %s', aggregate);
					EXECUTE format('DROP FUNCTION %s', trans);
				EXCEPTION WHEN dependent_objects_still_exist THEN
					NULL;
				END;
			END IF;
		END LOOP;
	END LOOP;
END
$$;
COMMENT ON FUNCTION bloomsketch_citext_overloads(boolean) IS
	'adds (true) or removes (false) the overloads of bloom_agg, cms_agg, bloom_fit_agg and topk_agg that refuse citext; adding does nothing without the citext extension';
-- It runs as bloomsketch's owner: no other user may call it (and so remove
-- the guards); the event trigger below, which no one can call directly,
-- is its only way in.
REVOKE EXECUTE ON FUNCTION bloomsketch_citext_overloads(boolean) FROM PUBLIC;

-- Fired by any user's DDL (citext is a trusted extension, so a user without
-- superuser rights may create or drop it), it runs as bloomsketch's owner
-- too, to call the function above.  Before a DROP that could take citext
-- the overloads go, and after it, or after CREATE EXTENSION, they come back
-- if citext is there.
CREATE FUNCTION bloomsketch_citext_trigger() RETURNS event_trigger
	LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	nsp text;
BEGIN
	SELECT quote_ident(n.nspname) INTO nsp
	FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
	WHERE e.extname = 'bloomsketch';
	IF nsp IS NULL THEN
		RETURN;
	END IF;
	-- A boolean parameter, not a literal: an overload that anyone with
	-- CREATE on the schema added (say for text, which an untyped literal
	-- would prefer) can never match better than the exact one.
	EXECUTE format('SELECT %s.bloomsketch_citext_overloads($1)', nsp)
		USING TG_EVENT = 'ddl_command_end';
END
$$;
COMMENT ON FUNCTION bloomsketch_citext_trigger() IS
	'event trigger function: keeps the overloads that refuse citext while the citext extension is installed';
CREATE EVENT TRIGGER bloomsketch_citext_before_drop ON ddl_command_start
	WHEN TAG IN ('DROP EXTENSION', 'DROP SCHEMA', 'DROP OWNED')
	EXECUTE FUNCTION bloomsketch_citext_trigger();
COMMENT ON EVENT TRIGGER bloomsketch_citext_before_drop IS
	'removes the overloads that refuse citext before a DROP that could take citext';
CREATE EVENT TRIGGER bloomsketch_citext_after ON ddl_command_end
	WHEN TAG IN ('CREATE EXTENSION', 'DROP EXTENSION', 'DROP SCHEMA', 'DROP OWNED')
	EXECUTE FUNCTION bloomsketch_citext_trigger();
COMMENT ON EVENT TRIGGER bloomsketch_citext_after IS
	'adds the overloads that refuse citext when the citext extension is installed';
SELECT bloomsketch_citext_overloads(true);

-- ---------------------------------------------------------------------------
-- One vocabulary for the three types (docs/reference.md#vocabulary): the
-- operations that one type had and another lacked
-- ---------------------------------------------------------------------------

-- As for cms_add and cms_estimate, an untyped literal has an overload of its
-- own (bloomsketch_literal, above) and every typed value, citext included,
-- reaches the anyelement function, which refuses citext.  topk_create sizes
-- as topk_agg does: its two forms are topk_agg's two forms.
CREATE FUNCTION topk_create(k integer) RETURNS topksketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION topk_create(integer) IS
	'an empty topksketch of k counters, which merges with topk_agg(value, k) results';
CREATE FUNCTION topk_create(k integer, epsilon float8) RETURNS topksketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION topk_create(integer, float8) IS
	'an empty topksketch of max(k, ceil(1/epsilon) - 1) counters, which merges with topk_agg(value, k, epsilon) results';

-- Not strict, as cms_add and bloom_add: a NULL value or count counts
-- nothing and returns the summary unchanged.  Immutable as topk_agg is: the
-- texts of numeric values and family other are written under fixed settings.
CREATE FUNCTION topk_add(summary topksketch, value anyelement, count bigint DEFAULT 1)
	RETURNS topksketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION topk_add(topksketch, anyelement, bigint) IS
	'a copy of the summary with count occurrences of the value counted, its bounds as after topk_agg (a NULL value or count counts nothing; a NULL summary gives NULL)';
CREATE FUNCTION topk_add(summary topksketch, value bloomsketch_literal, count bigint DEFAULT 1)
	RETURNS topksketch
	AS 'MODULE_PATHNAME', 'topk_add' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION topk_add(topksketch, bloomsketch_literal, bigint) IS
	'a copy of the summary with count occurrences of the untyped literal counted as text';

-- Immutable, unlike topk_items: they compare canonical bytes and render no text.
CREATE FUNCTION topk_estimate(summary topksketch, value anyelement) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION topk_estimate(topksketch, anyelement) IS
	'the occurrences of the value the summary counted (its count in topk_items, never above the true count); 0 when it is not listed';
CREATE FUNCTION topk_estimate(summary topksketch, value bloomsketch_literal) RETURNS bigint
	AS 'MODULE_PATHNAME', 'topk_estimate' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION topk_estimate(topksketch, bloomsketch_literal) IS
	'topk_estimate of the untyped literal, as text';
CREATE FUNCTION topk_bounds(summary topksketch, value anyelement,
	OUT lower_bound bigint, OUT upper_bound bigint) RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION topk_bounds(topksketch, anyelement) IS
	'bounds of the true count of the value: those of topk_items when it is listed, else 0 and max_error';
CREATE FUNCTION topk_bounds(summary topksketch, value bloomsketch_literal,
	OUT lower_bound bigint, OUT upper_bound bigint) RETURNS record
	AS 'MODULE_PATHNAME', 'topk_bounds' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION topk_bounds(topksketch, bloomsketch_literal) IS
	'topk_bounds of the untyped literal, as text';

-- Intersection of count-min sketches, spelled as for filters.  The
-- aggregate's transition function allocates a sketch per row, which costs
-- no more than reading that row's sketch.
CREATE OPERATOR & (
	LEFTARG = cmsketch,
	RIGHTARG = cmsketch,
	FUNCTION = cms_intersect,
	COMMUTATOR = &
);
COMMENT ON OPERATOR & (cmsketch, cmsketch) IS 'intersection of two sketches (cms_intersect)';
CREATE AGGREGATE cms_intersect_agg(cmsketch) (
	SFUNC = cms_intersect,
	STYPE = cmsketch,
	SSPACE = 304512,
	COMBINEFUNC = cms_intersect,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE cms_intersect_agg(cmsketch) IS
	'intersection of the non-NULL sketches (counter-wise minimum); NULL when there are none';

-- ---- Many values in one call (element-wise functions) ----
-- Each takes an array and works on its elements, in storage order (a
-- multi-dimensional array as unnest reads it; lower bounds play no part),
-- answering element by element as the function for one value does: a
-- filter of arrays (family other) still takes an array as one value through
-- bloom_contains and @>, so these have names of their own (_each, _all,
-- _any, bloom_members).  NULL elements are no values: NULL answers, never
-- members, nothing added.  An array of citext is refused as citext is.
-- The adds are not strict, as bloom_add and cms_add: a NULL array (or
-- count) returns the filter or sketch unchanged.
CREATE FUNCTION bloom_contains_each(filter bloomfilter, "values" anyarray) RETURNS boolean[]
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_contains_each(bloomfilter, anyarray) IS
	'bloom_contains of each element of the array, in order (NULL for a NULL element)';
CREATE FUNCTION bloom_contains_all(filter bloomfilter, "values" anyarray) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_contains_all(bloomfilter, anyarray) IS
	'true when every non-NULL element of the array may be a member (true for an array of none)';
CREATE FUNCTION bloom_contains_any(filter bloomfilter, "values" anyarray) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_contains_any(bloomfilter, anyarray) IS
	'true when some non-NULL element of the array may be a member';
CREATE FUNCTION bloom_members(filter bloomfilter, "values" anyarray) RETURNS SETOF anyelement
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_members(bloomfilter, anyarray) IS
	'the elements of the array that may be members, in order, one row each (the semi-join helper)';
CREATE FUNCTION bloom_add_each(filter bloomfilter, "values" anyarray) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_add_each(bloomfilter, anyarray) IS
	'a copy of the filter with every non-NULL element of the array added (a NULL array adds nothing; a NULL filter gives NULL)';
CREATE FUNCTION cms_estimate_each(sketch cmsketch, "values" anyarray) RETURNS bigint[]
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION cms_estimate_each(cmsketch, anyarray) IS
	'cms_estimate of each element of the array, in order (NULL for a NULL element)';
CREATE FUNCTION cms_add_each(sketch cmsketch, "values" anyarray, count bigint DEFAULT 1)
	RETURNS cmsketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION cms_add_each(cmsketch, anyarray, bigint) IS
	'a copy of the sketch with count occurrences of every non-NULL element of the array added (a NULL array or count adds nothing; a NULL sketch gives NULL)';
CREATE FUNCTION topk_estimate_each(summary topksketch, "values" anyarray) RETURNS bigint[]
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION topk_estimate_each(topksketch, anyarray) IS
	'topk_estimate of each element of the array, in order (NULL for a NULL element)';
CREATE FUNCTION topk_bounds_each(summary topksketch, "values" anyarray,
	OUT value anyelement, OUT lower_bound bigint, OUT upper_bound bigint) RETURNS SETOF record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION topk_bounds_each(topksketch, anyarray) IS
	'a row per element of the array, in order: the element and its topk_bounds (all NULL for a NULL element)';
