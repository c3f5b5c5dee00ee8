-- The topksketch type: heavy-hitters summaries (Misra-Gries, mergeable), the
-- most frequent values of a column with bounds on their counts that survive
-- merging (docs/topk.md).  Its I/O, casts, the listing, the aggregates,
-- merge, ordering and hashing, creating, adding and querying one value, and
-- the element-wise functions.  The concrete-typed overloads of topk_agg and
-- topk_weighted_agg are in typed_topk_agg.sql.  All of it is new in 0.2.0.
-- (COST units as in bloomfilter.sql.)

-- @since 0.2.0
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

-- ---------------------------------------------------------------------------
-- Creating, adding and querying one value: the operations the other types
-- had (docs/reference.md#vocabulary)
-- ---------------------------------------------------------------------------

-- As for cms_add and cms_estimate, an untyped literal has an overload of its
-- own (bloomsketch_literal, literal.sql) and every typed value, citext included,
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

-- ---- Many values in one call (element-wise functions, as bloomfilter.sql's) ----
CREATE FUNCTION topk_estimate_each(summary topksketch, "values" anyarray) RETURNS bigint[]
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION topk_estimate_each(topksketch, anyarray) IS
	'topk_estimate of each element of the array, in order (NULL for a NULL element)';
CREATE FUNCTION topk_bounds_each(summary topksketch, "values" anyarray,
	OUT value anyelement, OUT lower_bound bigint, OUT upper_bound bigint) RETURNS SETOF record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION topk_bounds_each(topksketch, anyarray) IS
	'a row per element of the array, in order: the element and its topk_bounds (all NULL for a NULL element)';
