-- bloomsketch 0.1.0: Bloom filters as SQL values.
\echo Use "CREATE EXTENSION bloomsketch" to load this file. \quit

-- ---------------------------------------------------------------------------
-- The bloomfilter type
-- ---------------------------------------------------------------------------

CREATE TYPE bloomfilter;

CREATE FUNCTION bloomfilter_in(cstring) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloomfilter_out(bloomfilter) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloomfilter_recv(internal) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloomfilter_send(bloomfilter) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE bloomfilter (
	INPUT = bloomfilter_in,
	OUTPUT = bloomfilter_out,
	RECEIVE = bloomfilter_recv,
	SEND = bloomfilter_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = extended
);

COMMENT ON TYPE bloomfilter IS
	'Bloom filter: approximate set membership with no false negatives (Kirsch-Mitzenmacher double hashing over xxHash)';
COMMENT ON FUNCTION bloomfilter_in(cstring) IS
	'text input of bloomfilter: bloom:v1:<scheme>:<family>:k=..:m=..:seed=..:items=..:<base64 bits>';
COMMENT ON FUNCTION bloomfilter_out(bloomfilter) IS
	'text output of bloomfilter, the exact inverse of its input';
COMMENT ON FUNCTION bloomfilter_recv(internal) IS
	'binary input of bloomfilter (little-endian serialized form), validated';
COMMENT ON FUNCTION bloomfilter_send(bloomfilter) IS
	'binary output of bloomfilter (little-endian serialized form)';

-- ---------------------------------------------------------------------------
-- Casts to and from bytea (the serialized form)
-- ---------------------------------------------------------------------------

CREATE FUNCTION bloomfilter_to_bytea(bloomfilter) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bloomfilter_from_bytea(bytea) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE CAST (bloomfilter AS bytea) WITH FUNCTION bloomfilter_to_bytea(bloomfilter);
CREATE CAST (bytea AS bloomfilter) WITH FUNCTION bloomfilter_from_bytea(bytea);

COMMENT ON FUNCTION bloomfilter_to_bytea(bloomfilter) IS
	'the serialized bytes of a bloomfilter (36-byte little-endian header, then the bits)';
COMMENT ON FUNCTION bloomfilter_from_bytea(bytea) IS
	'a bloomfilter from its serialized bytes, validated like binary input';
COMMENT ON CAST (bloomfilter AS bytea) IS
	'the serialized bytes of a bloomfilter';
COMMENT ON CAST (bytea AS bloomfilter) IS
	'a bloomfilter from its serialized bytes, validated';

-- ---------------------------------------------------------------------------
-- Creating, adding, probing, inspecting
-- ---------------------------------------------------------------------------

CREATE FUNCTION bloom_create(capacity bigint, fpr float8 DEFAULT 0.01, seed bigint DEFAULT 0)
	RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_create(bigint, float8, bigint) IS
	'an empty bloomfilter sized for capacity distinct items at false-positive rate fpr';

-- Not strict: a NULL value adds nothing and returns the filter unchanged.
CREATE FUNCTION bloom_add(filter bloomfilter, value anyelement) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloomfilter, anyelement) IS
	'a copy of the filter with the value added (a NULL value adds nothing; a NULL filter gives NULL)';

CREATE FUNCTION bloom_contains(filter bloomfilter, value anyelement) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains(bloomfilter, anyelement) IS
	'false if the value was surely never added; true if it probably was';

CREATE FUNCTION bloom_contained_in(value anyelement, filter bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contained_in(anyelement, bloomfilter) IS
	'bloom_contains with its arguments swapped (the function behind <@)';

CREATE OPERATOR @> (
	LEFTARG = bloomfilter,
	RIGHTARG = anyelement,
	FUNCTION = bloom_contains,
	COMMUTATOR = <@
);
COMMENT ON OPERATOR @> (bloomfilter, anyelement) IS
	'filter probably contains value (bloom_contains)';

CREATE OPERATOR <@ (
	LEFTARG = anyelement,
	RIGHTARG = bloomfilter,
	FUNCTION = bloom_contained_in,
	COMMUTATOR = @>
);
COMMENT ON OPERATOR <@ (anyelement, bloomfilter) IS
	'value is probably contained in filter (bloom_contains)';

-- Text overloads, so that an untyped literal ('alice') resolves to text
-- instead of failing polymorphic resolution; they share the C functions.
CREATE FUNCTION bloom_add(filter bloomfilter, value text) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_add(bloomfilter, text) IS
	'a copy of the filter with the text value added (lets untyped literals resolve to text)';
CREATE FUNCTION bloom_contains(filter bloomfilter, value text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contains(bloomfilter, text) IS
	'false if the text value was surely never added; true if it probably was';
CREATE FUNCTION bloom_contained_in(value text, filter bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_contained_in(text, bloomfilter) IS
	'bloom_contains with its arguments swapped (the function behind <@ for text)';
CREATE OPERATOR @> (
	LEFTARG = bloomfilter,
	RIGHTARG = text,
	FUNCTION = bloom_contains,
	COMMUTATOR = <@
);
COMMENT ON OPERATOR @> (bloomfilter, text) IS
	'filter probably contains the text value (bloom_contains)';
CREATE OPERATOR <@ (
	LEFTARG = text,
	RIGHTARG = bloomfilter,
	FUNCTION = bloom_contained_in,
	COMMUTATOR = @>
);
COMMENT ON OPERATOR <@ (text, bloomfilter) IS
	'the text value is probably contained in filter (bloom_contains)';

CREATE FUNCTION bloom_info(filter bloomfilter,
	OUT bits bigint, OUT hashes integer, OUT seed bigint, OUT scheme text,
	OUT family text, OUT bits_set bigint, OUT items_added bigint, OUT bytes bigint,
	OUT format_version integer)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_info(bloomfilter) IS
	'parameters and fill of a bloomfilter: bits (m), hashes (k), seed, scheme, family, bits_set, items_added, bytes, format_version';

-- ---------------------------------------------------------------------------
-- Aggregates
-- ---------------------------------------------------------------------------

-- Not strict: the first non-NULL value allocates the state in place.
CREATE FUNCTION bloom_agg_trans(state bloomfilter, value anyelement, capacity bigint)
	RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_trans(bloomfilter, anyelement, bigint) IS
	'transition function of bloom_agg(value, capacity): adds value to the state in place';

CREATE FUNCTION bloom_agg_trans(state bloomfilter, value anyelement, capacity bigint, fpr float8)
	RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_trans(bloomfilter, anyelement, bigint, float8) IS
	'transition function of bloom_agg(value, capacity, fpr): adds value to the state in place';

CREATE FUNCTION bloom_agg_combine(bloomfilter, bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_combine(bloomfilter, bloomfilter) IS
	'combine function of bloom_agg: ORs two partial filters built with the same parameters';

CREATE AGGREGATE bloom_agg(value anyelement, capacity bigint) (
	SFUNC = bloom_agg_trans,
	STYPE = bloomfilter,
	COMBINEFUNC = bloom_agg_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(anyelement, bigint) IS
	'a bloomfilter of the non-NULL values, sized for capacity items at a 1% false-positive rate';

CREATE AGGREGATE bloom_agg(value anyelement, capacity bigint, fpr float8) (
	SFUNC = bloom_agg_trans,
	STYPE = bloomfilter,
	COMBINEFUNC = bloom_agg_combine,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(anyelement, bigint, float8) IS
	'a bloomfilter of the non-NULL values, sized for capacity items at false-positive rate fpr';
