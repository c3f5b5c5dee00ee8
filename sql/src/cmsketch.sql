-- The cmsketch type: count-min sketches, approximate frequency counts that
-- never under-estimate.  Its I/O, casts, creating, adding and querying,
-- merge and intersection, the aggregates, ordering and hashing, and the
-- element-wise functions.  The concrete-typed overloads of cms_agg are in
-- typed_cms_agg.sql.  (COST units as in bloomfilter.sql.)

-- @since 0.1.0
-- ---------------------------------------------------------------------------
-- The cmsketch type
-- ---------------------------------------------------------------------------

CREATE TYPE cmsketch;

CREATE FUNCTION cmsketch_in(cstring) RETURNS cmsketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
CREATE FUNCTION cmsketch_out(cmsketch) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
CREATE FUNCTION cmsketch_recv(internal) RETURNS cmsketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
CREATE FUNCTION cmsketch_send(cmsketch) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;

CREATE TYPE cmsketch (
	INPUT = cmsketch_in,
	OUTPUT = cmsketch_out,
	RECEIVE = cmsketch_recv,
	SEND = cmsketch_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = extended
);

COMMENT ON TYPE cmsketch IS
	'count-min sketch: approximate frequency counts that never under-estimate (Kirsch-Mitzenmacher two-hash variant over xxHash)';
COMMENT ON FUNCTION cmsketch_out(cmsketch) IS
	'text output of cmsketch, the exact inverse of its input';
COMMENT ON FUNCTION cmsketch_recv(internal) IS
	'binary input of cmsketch (little-endian serialized form), validated';
COMMENT ON FUNCTION cmsketch_send(cmsketch) IS
	'binary output of cmsketch (little-endian serialized form)';

-- ---------------------------------------------------------------------------
-- Casts to and from bytea (the serialized form)
-- ---------------------------------------------------------------------------

CREATE FUNCTION cmsketch_to_bytea(cmsketch) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
CREATE FUNCTION cmsketch_from_bytea(bytea) RETURNS cmsketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;

CREATE CAST (cmsketch AS bytea) WITH FUNCTION cmsketch_to_bytea(cmsketch);
CREATE CAST (bytea AS cmsketch) WITH FUNCTION cmsketch_from_bytea(bytea);

COMMENT ON FUNCTION cmsketch_to_bytea(cmsketch) IS
	'the serialized bytes of a cmsketch (32-byte little-endian header, then the counters)';
COMMENT ON FUNCTION cmsketch_from_bytea(bytea) IS
	'a cmsketch from its serialized bytes, validated like binary input';
COMMENT ON CAST (cmsketch AS bytea) IS
	'the serialized bytes of a cmsketch';
COMMENT ON CAST (bytea AS cmsketch) IS
	'a cmsketch from its serialized bytes, validated';

-- ---------------------------------------------------------------------------
-- Creating, adding, querying, inspecting
-- ---------------------------------------------------------------------------

CREATE FUNCTION cms_create(epsilon float8 DEFAULT 0.001, delta float8 DEFAULT 0.001, seed bigint DEFAULT 0)
	RETURNS cmsketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION cms_create(float8, float8, bigint) IS
	'an empty cmsketch whose estimates exceed the true count by more than epsilon times the total with probability at most delta';

CREATE FUNCTION cms_create_dims(width integer, depth integer, seed bigint DEFAULT 0)
	RETURNS cmsketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION cms_create_dims(integer, integer, bigint) IS
	'an empty cmsketch of depth rows of width counters (width rounded up to a prime)';

-- Not strict: a NULL value or count adds nothing and returns the sketch unchanged.
CREATE FUNCTION cms_add(sketch cmsketch, value anyelement, count bigint DEFAULT 1) RETURNS cmsketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION cms_add(cmsketch, anyelement, bigint) IS
	'a copy of the sketch with count occurrences of the value added (a NULL value or count adds nothing; a NULL sketch gives NULL)';

CREATE FUNCTION cms_estimate(sketch cmsketch, value anyelement) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10;
COMMENT ON FUNCTION cms_estimate(cmsketch, anyelement) IS
	'estimated count of the value: never below the true count';

-- @since 0.2.0
-- Format version 2 hashes text as UTF-8 and structured values element by
-- element (as for bloomfilter_in).
COMMENT ON FUNCTION cmsketch_in(cstring) IS
	'text input of cmsketch: cms:v2:<family>:w=..:d=..:copies=..:seed=..:total=..:<base64 counters> (v1 is read too)';

-- An untyped literal takes the type bloomsketch_literal (literal.sql) and is
-- hashed as text; every typed value reaches the anyelement functions.
CREATE FUNCTION cms_add(sketch cmsketch, value bloomsketch_literal, count bigint DEFAULT 1) RETURNS cmsketch
	AS 'MODULE_PATHNAME', 'cms_add' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION cms_add(cmsketch, bloomsketch_literal, bigint) IS
	'a copy of the sketch with count occurrences of the untyped literal added as text';
CREATE FUNCTION cms_estimate(sketch cmsketch, value bloomsketch_literal) RETURNS bigint
	AS 'MODULE_PATHNAME', 'cms_estimate' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10;
COMMENT ON FUNCTION cms_estimate(cmsketch, bloomsketch_literal) IS
	'estimated count of the untyped literal, as text: never below the true count';

-- @since 0.1.0
CREATE FUNCTION cms_total(sketch cmsketch) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION cms_total(cmsketch) IS
	'the total count added to the sketch (for an intersection, its smallest row sum)';

CREATE FUNCTION cms_inner_product(a cmsketch, b cmsketch) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION cms_inner_product(cmsketch, cmsketch) IS
	'estimated inner product sum_i a_i b_i of two frequency vectors (e.g. the size of an equi-join): never below it';

CREATE FUNCTION cms_info(sketch cmsketch,
	OUT width integer, OUT depth integer, OUT copies integer, OUT epsilon float8,
	OUT delta float8, OUT seed bigint, OUT family text, OUT total bigint, OUT bytes bigint,
	OUT format_version integer)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION cms_info(cmsketch) IS
	'parameters of a cmsketch: width (w), depth (d), copies, epsilon (2e/w), delta (the Theorem 9.1 bound at that epsilon, to the power copies), seed, family, total, bytes, format_version';


-- ---------------------------------------------------------------------------
-- Merge and intersection
-- ---------------------------------------------------------------------------

CREATE FUNCTION cms_merge(a cmsketch, b cmsketch) RETURNS cmsketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION cms_merge(cmsketch, cmsketch) IS
	'the sketch of both streams (counter-wise sum); both must share version, width, depth, copies, seed and family';

CREATE FUNCTION cms_intersect(a cmsketch, b cmsketch) RETURNS cmsketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION cms_intersect(cmsketch, cmsketch) IS
	'counter-wise minimum of two sketches: estimates are at least min(a_i, b_i)';

CREATE OPERATOR + (
	LEFTARG = cmsketch,
	RIGHTARG = cmsketch,
	FUNCTION = cms_merge,
	COMMUTATOR = +
);
COMMENT ON OPERATOR + (cmsketch, cmsketch) IS 'merge of two sketches (cms_merge)';

-- ---------------------------------------------------------------------------
-- Aggregates
-- ---------------------------------------------------------------------------

-- Not strict: the first non-NULL value allocates the state; later ones are
-- added in place.
CREATE FUNCTION cms_agg_trans(state cmsketch, value anyelement)
	RETURNS cmsketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5;
COMMENT ON FUNCTION cms_agg_trans(cmsketch, anyelement) IS
	'transition function of cms_agg(value): adds the value to the state in place';

CREATE FUNCTION cms_agg_trans(state cmsketch, value anyelement, epsilon float8, delta float8)
	RETURNS cmsketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5;
COMMENT ON FUNCTION cms_agg_trans(cmsketch, anyelement, float8, float8) IS
	'transition function of cms_agg(value, epsilon, delta): adds the value to the state in place';

CREATE FUNCTION cms_agg_trans(state cmsketch, value anyelement, count bigint)
	RETURNS cmsketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5;
COMMENT ON FUNCTION cms_agg_trans(cmsketch, anyelement, bigint) IS
	'transition function of cms_agg(value, count): adds count occurrences of the value to the state in place';

CREATE FUNCTION cms_agg_trans(state cmsketch, value anyelement, count bigint, epsilon float8, delta float8)
	RETURNS cmsketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5;
COMMENT ON FUNCTION cms_agg_trans(cmsketch, anyelement, bigint, float8, float8) IS
	'transition function of cms_agg(value, count, epsilon, delta): adds count occurrences of the value to the state in place';

-- Strict, so the first non-NULL input becomes the state; later ones are
-- merged into it in place.
CREATE FUNCTION cms_merge_trans(state cmsketch, sketch cmsketch) RETURNS cmsketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION cms_merge_trans(cmsketch, cmsketch) IS
	'transition and combine function of cms_merge_agg, combine function of cms_agg: adds a sketch into the state in place';

-- @since 0.2.0
-- No combine function for the anyelement forms, as for bloom_agg's
-- (bloomfilter.sql); the concrete-typed overloads have one.
CREATE OR REPLACE AGGREGATE cms_agg(value anyelement) (
	SFUNC = cms_agg_trans,
	STYPE = cmsketch,
	SSPACE = 304512,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE cms_agg(anyelement) IS
	'a cmsketch counting the non-NULL values, with epsilon = delta = 0.001';

CREATE OR REPLACE AGGREGATE cms_agg(value anyelement, epsilon float8, delta float8) (
	SFUNC = cms_agg_trans,
	STYPE = cmsketch,
	SSPACE = 304512,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE cms_agg(anyelement, float8, float8) IS
	'a cmsketch counting the non-NULL values, with error bound epsilon and failure probability delta';

CREATE OR REPLACE AGGREGATE cms_agg(value anyelement, count bigint) (
	SFUNC = cms_agg_trans,
	STYPE = cmsketch,
	SSPACE = 304512,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE cms_agg(anyelement, bigint) IS
	'a cmsketch adding count occurrences of each non-NULL value (rows with a NULL count are skipped), with epsilon = delta = 0.001';

CREATE OR REPLACE AGGREGATE cms_agg(value anyelement, count bigint, epsilon float8, delta float8) (
	SFUNC = cms_agg_trans,
	STYPE = cmsketch,
	SSPACE = 304512,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE cms_agg(anyelement, bigint, float8, float8) IS
	'a cmsketch adding count occurrences of each non-NULL value (rows with a NULL count are skipped), with error bound epsilon and failure probability delta';

-- @since 0.1.0
CREATE AGGREGATE cms_merge_agg(cmsketch) (

	SFUNC = cms_merge_trans,
	STYPE = cmsketch,
	SSPACE = 304512,
	COMBINEFUNC = cms_merge_trans,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE cms_merge_agg(cmsketch) IS
	'merge of the non-NULL sketches (counter-wise sum); NULL when there are none';

-- ---------------------------------------------------------------------------
-- Equality, ordering and hashing (GROUP BY, DISTINCT, UNION)
-- ---------------------------------------------------------------------------

CREATE FUNCTION cmsketch_eq(cmsketch, cmsketch) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION cmsketch_ne(cmsketch, cmsketch) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION cmsketch_lt(cmsketch, cmsketch) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION cmsketch_le(cmsketch, cmsketch) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION cmsketch_gt(cmsketch, cmsketch) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION cmsketch_ge(cmsketch, cmsketch) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION cmsketch_cmp(cmsketch, cmsketch) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION cmsketch_hash(cmsketch) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION cmsketch_hash_extended(cmsketch, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;

COMMENT ON FUNCTION cmsketch_eq(cmsketch, cmsketch) IS 'equal parameters and counters';
COMMENT ON FUNCTION cmsketch_ne(cmsketch, cmsketch) IS 'different parameters or counters';
COMMENT ON FUNCTION cmsketch_lt(cmsketch, cmsketch) IS 'btree order: header fields, then counters';
COMMENT ON FUNCTION cmsketch_le(cmsketch, cmsketch) IS 'btree order: header fields, then counters';
COMMENT ON FUNCTION cmsketch_gt(cmsketch, cmsketch) IS 'btree order: header fields, then counters';
COMMENT ON FUNCTION cmsketch_ge(cmsketch, cmsketch) IS 'btree order: header fields, then counters';
COMMENT ON FUNCTION cmsketch_cmp(cmsketch, cmsketch) IS 'btree support function for cmsketch';
COMMENT ON FUNCTION cmsketch_hash(cmsketch) IS 'hash support function for cmsketch';
COMMENT ON FUNCTION cmsketch_hash_extended(cmsketch, bigint) IS 'seeded hash support function for cmsketch';

CREATE OPERATOR = (
	LEFTARG = cmsketch, RIGHTARG = cmsketch, FUNCTION = cmsketch_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = cmsketch, RIGHTARG = cmsketch, FUNCTION = cmsketch_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = cmsketch, RIGHTARG = cmsketch, FUNCTION = cmsketch_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = cmsketch, RIGHTARG = cmsketch, FUNCTION = cmsketch_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = cmsketch, RIGHTARG = cmsketch, FUNCTION = cmsketch_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = cmsketch, RIGHTARG = cmsketch, FUNCTION = cmsketch_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR = (cmsketch, cmsketch) IS 'equal parameters and counters';
COMMENT ON OPERATOR <> (cmsketch, cmsketch) IS 'different parameters or counters';
COMMENT ON OPERATOR < (cmsketch, cmsketch) IS 'btree order (for sorting only)';
COMMENT ON OPERATOR <= (cmsketch, cmsketch) IS 'btree order (for sorting only)';
COMMENT ON OPERATOR > (cmsketch, cmsketch) IS 'btree order (for sorting only)';
COMMENT ON OPERATOR >= (cmsketch, cmsketch) IS 'btree order (for sorting only)';

CREATE OPERATOR CLASS cmsketch_ops DEFAULT FOR TYPE cmsketch USING btree AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 cmsketch_cmp(cmsketch, cmsketch);
COMMENT ON OPERATOR CLASS cmsketch_ops USING btree IS 'btree operator class for cmsketch';

CREATE OPERATOR CLASS cmsketch_hash_ops DEFAULT FOR TYPE cmsketch USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 cmsketch_hash(cmsketch),
	FUNCTION 2 cmsketch_hash_extended(cmsketch, bigint);
COMMENT ON OPERATOR CLASS cmsketch_hash_ops USING hash IS 'hash operator class for cmsketch';

COMMENT ON OPERATOR FAMILY cmsketch_ops USING btree IS 'btree operator family of cmsketch';
COMMENT ON OPERATOR FAMILY cmsketch_hash_ops USING hash IS 'hash operator family of cmsketch';

-- @since 0.2.0
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

-- ---- Many values in one call (element-wise functions, as bloomfilter.sql's) ----
-- cms_add_each is not strict, as cms_add: a NULL array or count returns the
-- sketch unchanged.
CREATE FUNCTION cms_estimate_each(sketch cmsketch, "values" anyarray) RETURNS bigint[]
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION cms_estimate_each(cmsketch, anyarray) IS
	'cms_estimate of each element of the array, in order (NULL for a NULL element)';
CREATE FUNCTION cms_add_each(sketch cmsketch, "values" anyarray, count bigint DEFAULT 1)
	RETURNS cmsketch
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION cms_add_each(cmsketch, anyarray, bigint) IS
	'a copy of the sketch with count occurrences of every non-NULL element of the array added (a NULL array or count adds nothing; a NULL sketch gives NULL)';
