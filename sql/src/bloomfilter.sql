-- The bloomfilter type: approximate set membership with no false negatives.
-- Its I/O, casts, creating, adding and probing, the aggregates, union and
-- intersection, ordering and hashing, estimates from the set bits, the exact
-- analysis of the false-positive rate, self-sized filters (bloom_fit_agg) and
-- the element-wise functions.  The concrete-typed overloads of bloom_agg and
-- bloom_fit_agg are in typed_bloom_agg.sql and typed_bloom_fit_agg.sql.
--
-- COST (in units of cpu_operator_cost, measured on the benchmark machine at
-- about 40 ns per unit): 5-10 for the per-row hashing and probing functions,
-- 100 for word-at-a-time merges and comparisons, 1000 for anything that
-- copies, scans or (de)serializes a whole value or sizes a new one, 10000 for
-- the exact analysis.  bench/scaleout.sh shows the resulting plans.

-- @since 0.1.0
-- ---------------------------------------------------------------------------
-- The bloomfilter type
-- ---------------------------------------------------------------------------

CREATE TYPE bloomfilter;

CREATE FUNCTION bloomfilter_in(cstring) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
CREATE FUNCTION bloomfilter_out(bloomfilter) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
CREATE FUNCTION bloomfilter_recv(internal) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
CREATE FUNCTION bloomfilter_send(bloomfilter) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;

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
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
CREATE FUNCTION bloomfilter_from_bytea(bytea) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;

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

-- (C symbol bloomfilter_create: the server has a bloom_create of its own)
CREATE FUNCTION bloom_create(capacity bigint, fpr float8 DEFAULT 0.01, seed bigint DEFAULT 0,
	scheme text DEFAULT 'double')
	RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloomfilter_create' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_create(bigint, float8, bigint, text) IS
	'an empty bloomfilter of the probing scheme (double, double_square, double_cube, partition, independent, blocked), sized for capacity distinct items at false-positive rate fpr';

-- Not strict: a NULL value adds nothing and returns the filter unchanged.
CREATE FUNCTION bloom_add(filter bloomfilter, value anyelement) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_add(bloomfilter, anyelement) IS
	'a copy of the filter with the value added (a NULL value adds nothing; a NULL filter gives NULL)';

CREATE FUNCTION bloom_contains(filter bloomfilter, value anyelement) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10;
COMMENT ON FUNCTION bloom_contains(bloomfilter, anyelement) IS
	'false if the value was surely never added; true if it probably was';

CREATE FUNCTION bloom_contained_in(value anyelement, filter bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10;
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

-- @since 0.2.0
-- Format version 2 hashes text as UTF-8 and structured values element by
-- element; the C library reads both versions, so no stored value changes.
-- The input function's comment names the text form the output writes
-- (extension_metadata checks it against a freshly built value).
COMMENT ON FUNCTION bloomfilter_in(cstring) IS
	'text input of bloomfilter: bloom:v2:<scheme>:<family>:k=..:m=..:seed=..:items=..:<base64 bits> (v1 is read too)';

-- An untyped literal takes the type bloomsketch_literal (literal.sql) and is
-- hashed as text; every typed value reaches the anyelement functions.
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

-- bloom_info reports whether a self-sized filter's values exceeded its
-- ceiling (its current_fpr is then above the rate asked for).
CREATE FUNCTION bloom_info(filter bloomfilter,
	OUT bits bigint, OUT hashes integer, OUT seed bigint, OUT scheme text,
	OUT family text, OUT bits_set bigint, OUT items_added bigint, OUT bytes bigint,
	OUT format_version integer, OUT estimated_items float8, OUT current_fpr float8,
	OUT over_ceiling boolean)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_info(bloomfilter) IS
	'parameters, fill and estimates of a bloomfilter: bits (m), hashes (k), seed, scheme, family, bits_set, items_added, bytes, format_version, estimated_items, current_fpr, and over_ceiling (a self-sized filter whose values exceeded its max_bits; false for every other filter)';

-- @since 0.1.0
-- ---------------------------------------------------------------------------
-- Aggregates
-- ---------------------------------------------------------------------------

-- Not strict: the first non-NULL value allocates the state in place.
CREATE FUNCTION bloom_agg_trans(state bloomfilter, value anyelement, capacity bigint)
	RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5;
COMMENT ON FUNCTION bloom_agg_trans(bloomfilter, anyelement, bigint) IS
	'transition function of bloom_agg(value, capacity): adds value to the state in place';

CREATE FUNCTION bloom_agg_trans(state bloomfilter, value anyelement, capacity bigint, fpr float8)
	RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5;
COMMENT ON FUNCTION bloom_agg_trans(bloomfilter, anyelement, bigint, float8) IS
	'transition function of bloom_agg(value, capacity, fpr): adds value to the state in place';

CREATE FUNCTION bloom_agg_trans(state bloomfilter, value anyelement, capacity bigint, fpr float8,
	scheme text)
	RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5;
COMMENT ON FUNCTION bloom_agg_trans(bloomfilter, anyelement, bigint, float8, text) IS
	'transition function of bloom_agg(value, capacity, fpr, scheme): adds value to the state in place';

CREATE FUNCTION bloom_agg_final(state bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_agg_final(bloomfilter) IS
	'final function of bloom_agg: sets the bits of values still in its prefetch pipeline';

-- @since 0.2.0
-- Not strict, so that they see every filter: a partial state of
-- bloom_fit_agg is refused by every function but that aggregate's own
-- (22023), also when it is the only filter of a bloom_union_agg or
-- bloom_intersect_agg group, and as strict functions these transition
-- functions would never see it, PostgreSQL taking the group's first filter
-- as the state unread.  Called with a NULL they skip it, as strict functions
-- do.  (0.1.0 made them strict; OR REPLACE changes that on update.)
CREATE OR REPLACE FUNCTION bloom_union_trans(state bloomfilter, filter bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION bloom_union_trans(bloomfilter, bloomfilter) IS
	'transition and combine function of bloom_union_agg, combine function of bloom_agg: ORs a filter into the state in place';

CREATE OR REPLACE FUNCTION bloom_intersect_trans(state bloomfilter, filter bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION bloom_intersect_trans(bloomfilter, bloomfilter) IS
	'transition and combine function of bloom_intersect_agg: ANDs a filter into the state in place';

-- SSPACE: the planner cannot see capacity, fpr or epsilon, so the aggregates
-- declare the state of a typical call for its hash-aggregation memory
-- estimates: a filter for 100,000 items at 1% (119,960 bytes) and a count-min
-- sketch at the default epsilon = delta = 0.001 (304,512 bytes).
--
-- The anyelement forms have no combine function: over a type without a
-- concrete overload (arrays, ranges, composites, jsonb, time, interval,
-- inet...) Citus would push them down, to fail on every worker, since its
-- worker-side wrapper accepts an aggregate only when the declared argument
-- types equal the actual ones.  Without a combine function Citus gathers
-- their rows to the coordinator and aggregates them there, which gives the
-- right filter; the price is that a single server no longer aggregates
-- these types in parallel workers.  The concrete-typed overloads
-- (typed_bloom_agg.sql) have one.  (0.1.0 gave the anyelement forms one; OR
-- REPLACE keeps the aggregates' identity on update, so views that use them
-- stay valid.)
CREATE OR REPLACE AGGREGATE bloom_agg(value anyelement, capacity bigint) (
	SFUNC = bloom_agg_trans,
	STYPE = bloomfilter,
	SSPACE = 119960,
	FINALFUNC = bloom_agg_final,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(anyelement, bigint) IS
	'a bloomfilter of the non-NULL values, sized for capacity items at a 1% false-positive rate';

CREATE OR REPLACE AGGREGATE bloom_agg(value anyelement, capacity bigint, fpr float8) (
	SFUNC = bloom_agg_trans,
	STYPE = bloomfilter,
	SSPACE = 119960,
	FINALFUNC = bloom_agg_final,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(anyelement, bigint, float8) IS
	'a bloomfilter of the non-NULL values, sized for capacity items at false-positive rate fpr';

CREATE OR REPLACE AGGREGATE bloom_agg(value anyelement, capacity bigint, fpr float8, scheme text) (
	SFUNC = bloom_agg_trans,
	STYPE = bloomfilter,
	SSPACE = 119960,
	FINALFUNC = bloom_agg_final,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(anyelement, bigint, float8, text) IS
	'a bloomfilter of the non-NULL values with the given probing scheme, sized for capacity items at false-positive rate fpr';

-- @since 0.1.0
-- ---------------------------------------------------------------------------
-- Union and intersection
-- ---------------------------------------------------------------------------

CREATE FUNCTION bloom_union(a bloomfilter, b bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_union(bloomfilter, bloomfilter) IS
	'the filter of the union of two sets (bitwise OR); both must share version, scheme, m, k, seed and family';

CREATE FUNCTION bloom_intersect(a bloomfilter, b bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_intersect(bloomfilter, bloomfilter) IS
	'bitwise AND of two filters: answers yes for every value in both sets (and more false positives than a filter built on the intersection)';

CREATE OPERATOR | (
	LEFTARG = bloomfilter,
	RIGHTARG = bloomfilter,
	FUNCTION = bloom_union,
	COMMUTATOR = |
);
COMMENT ON OPERATOR | (bloomfilter, bloomfilter) IS 'union of two filters (bloom_union)';

CREATE OPERATOR & (
	LEFTARG = bloomfilter,
	RIGHTARG = bloomfilter,
	FUNCTION = bloom_intersect,
	COMMUTATOR = &
);
COMMENT ON OPERATOR & (bloomfilter, bloomfilter) IS 'intersection of two filters (bloom_intersect)';

CREATE AGGREGATE bloom_union_agg(bloomfilter) (
	SFUNC = bloom_union_trans,
	STYPE = bloomfilter,
	SSPACE = 119960,
	COMBINEFUNC = bloom_union_trans,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_union_agg(bloomfilter) IS
	'union of the non-NULL filters (bitwise OR); NULL when there are none';

CREATE AGGREGATE bloom_intersect_agg(bloomfilter) (
	SFUNC = bloom_intersect_trans,
	STYPE = bloomfilter,
	SSPACE = 119960,
	COMBINEFUNC = bloom_intersect_trans,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_intersect_agg(bloomfilter) IS
	'intersection of the non-NULL filters (bitwise AND); NULL when there are none';

-- ---------------------------------------------------------------------------
-- Equality, ordering and hashing (GROUP BY, DISTINCT, UNION)
-- ---------------------------------------------------------------------------

CREATE FUNCTION bloomfilter_eq(bloomfilter, bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION bloomfilter_ne(bloomfilter, bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION bloomfilter_lt(bloomfilter, bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION bloomfilter_le(bloomfilter, bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION bloomfilter_gt(bloomfilter, bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION bloomfilter_ge(bloomfilter, bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION bloomfilter_cmp(bloomfilter, bloomfilter) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION bloomfilter_hash(bloomfilter) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE FUNCTION bloomfilter_hash_extended(bloomfilter, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;

COMMENT ON FUNCTION bloomfilter_eq(bloomfilter, bloomfilter) IS 'equal parameters and bits';
COMMENT ON FUNCTION bloomfilter_ne(bloomfilter, bloomfilter) IS 'different parameters or bits';
COMMENT ON FUNCTION bloomfilter_lt(bloomfilter, bloomfilter) IS 'btree order: header fields, then bits';
COMMENT ON FUNCTION bloomfilter_le(bloomfilter, bloomfilter) IS 'btree order: header fields, then bits';
COMMENT ON FUNCTION bloomfilter_gt(bloomfilter, bloomfilter) IS 'btree order: header fields, then bits';
COMMENT ON FUNCTION bloomfilter_ge(bloomfilter, bloomfilter) IS 'btree order: header fields, then bits';
COMMENT ON FUNCTION bloomfilter_cmp(bloomfilter, bloomfilter) IS 'btree support function for bloomfilter';
COMMENT ON FUNCTION bloomfilter_hash(bloomfilter) IS 'hash support function for bloomfilter';
COMMENT ON FUNCTION bloomfilter_hash_extended(bloomfilter, bigint) IS 'seeded hash support function for bloomfilter';

CREATE OPERATOR = (
	LEFTARG = bloomfilter, RIGHTARG = bloomfilter, FUNCTION = bloomfilter_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
	LEFTARG = bloomfilter, RIGHTARG = bloomfilter, FUNCTION = bloomfilter_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = bloomfilter, RIGHTARG = bloomfilter, FUNCTION = bloomfilter_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = bloomfilter, RIGHTARG = bloomfilter, FUNCTION = bloomfilter_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = bloomfilter, RIGHTARG = bloomfilter, FUNCTION = bloomfilter_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = bloomfilter, RIGHTARG = bloomfilter, FUNCTION = bloomfilter_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel
);
COMMENT ON OPERATOR = (bloomfilter, bloomfilter) IS 'equal parameters and bits';
COMMENT ON OPERATOR <> (bloomfilter, bloomfilter) IS 'different parameters or bits';
COMMENT ON OPERATOR < (bloomfilter, bloomfilter) IS 'btree order (for sorting only)';
COMMENT ON OPERATOR <= (bloomfilter, bloomfilter) IS 'btree order (for sorting only)';
COMMENT ON OPERATOR > (bloomfilter, bloomfilter) IS 'btree order (for sorting only)';
COMMENT ON OPERATOR >= (bloomfilter, bloomfilter) IS 'btree order (for sorting only)';

CREATE OPERATOR CLASS bloomfilter_ops DEFAULT FOR TYPE bloomfilter USING btree AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 bloomfilter_cmp(bloomfilter, bloomfilter);
COMMENT ON OPERATOR CLASS bloomfilter_ops USING btree IS 'btree operator class for bloomfilter';

CREATE OPERATOR CLASS bloomfilter_hash_ops DEFAULT FOR TYPE bloomfilter USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 bloomfilter_hash(bloomfilter),
	FUNCTION 2 bloomfilter_hash_extended(bloomfilter, bigint);
COMMENT ON OPERATOR CLASS bloomfilter_hash_ops USING hash IS 'hash operator class for bloomfilter';
COMMENT ON OPERATOR FAMILY bloomfilter_ops USING btree IS 'btree operator family of bloomfilter';
COMMENT ON OPERATOR FAMILY bloomfilter_hash_ops USING hash IS 'hash operator family of bloomfilter';

-- ---------------------------------------------------------------------------
-- Estimates from the set bits
-- ---------------------------------------------------------------------------

CREATE FUNCTION bloom_cardinality(filter bloomfilter) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_cardinality(bloomfilter) IS
	'estimated number of distinct values in the filter: 0 when empty, Infinity when full';

CREATE FUNCTION bloom_cardinality_bounds(filter bloomfilter, confidence float8 DEFAULT 0.95,
	OUT lower float8, OUT upper float8) RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_cardinality_bounds(bloomfilter, float8) IS
	'confidence interval (lower, upper) for the number of distinct values in the filter';

CREATE FUNCTION bloom_union_cardinality(a bloomfilter, b bloomfilter) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_union_cardinality(bloomfilter, bloomfilter) IS
	'estimated number of distinct values in either filter';

CREATE FUNCTION bloom_intersection_cardinality(a bloomfilter, b bloomfilter) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_intersection_cardinality(bloomfilter, bloomfilter) IS
	'estimated number of distinct values in both filters: n(A) + n(B) - n(A or B), clamped; NULL when the union is full';

CREATE FUNCTION bloom_jaccard(a bloomfilter, b bloomfilter) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_jaccard(bloomfilter, bloomfilter) IS
	'estimated Jaccard similarity |A and B| / |A or B|; NULL when both are empty or the union is full';

CREATE FUNCTION bloom_fpr(filter bloomfilter) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;

-- ---------------------------------------------------------------------------
-- Exact analysis (construction: 'standard' = k independent positions per
-- item, 'classic' = k distinct positions per item, as these filters probe)
-- ---------------------------------------------------------------------------

CREATE FUNCTION bloom_fpr_exact(bits bigint, items bigint, hashes integer, construction text DEFAULT 'standard')
	RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10000;
COMMENT ON FUNCTION bloom_fpr_exact(bigint, bigint, integer, text) IS
	'exact expected false-positive rate of m bits holding n items with k hashes (Burns Theorem 22, eq. (60))';

CREATE FUNCTION bloom_expected_fpr(bits bigint, items bigint, hashes integer, scheme text DEFAULT 'double')
	RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10000;

CREATE FUNCTION bloom_fpr_approx(bits bigint, items bigint, hashes integer) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_fpr_approx(bigint, bigint, integer) IS
	'the textbook approximation (1 - e^(-kn/m))^k, a lower bound of the exact rate';

CREATE FUNCTION bloom_fpr_bounds(bits bigint, items bigint, hashes integer,
	OUT lower float8, OUT upper float8) RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10000;
COMMENT ON FUNCTION bloom_fpr_bounds(bigint, bigint, integer) IS
	'lower and upper bounds of the false-positive rate of both constructions (Burns Corollary 23)';

CREATE FUNCTION bloom_optimal_k(bits bigint, items bigint, construction text DEFAULT 'standard') RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10000;
COMMENT ON FUNCTION bloom_optimal_k(bigint, bigint, text) IS
	'the number of hashes that minimises the exact false-positive rate (ties to the smaller k)';

CREATE FUNCTION bloom_optimal_bits(items bigint, fpr float8, construction text DEFAULT 'standard') RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10000;
COMMENT ON FUNCTION bloom_optimal_bits(bigint, float8, text) IS
	'the smallest number of bits for which some k reaches an exact false-positive rate <= fpr';

CREATE FUNCTION bloom_efficiency(bits bigint, items bigint, hashes integer, construction text DEFAULT 'standard')
	RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10000;
COMMENT ON FUNCTION bloom_efficiency(bigint, bigint, integer, text) IS
	'n log2(1/p) / m with p the exact rate: the fraction of the space lower bound achieved (Burns section 4)';

CREATE FUNCTION bloom_space_lower_bound(items bigint, fpr float8) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION bloom_space_lower_bound(bigint, float8) IS
	'n log2(1/fpr): the fewest bits any membership structure for n items at rate fpr can use';

-- @since 0.2.0
-- The double-hashing and partition schemes' rates include Kirsch and
-- Mitzenmacher's Theta(1/n) term (docs/schemes.md).
COMMENT ON FUNCTION bloom_fpr(bloomfilter) IS
	'false-positive rate of the filter as it is now, from its set bits (for the double-hashing and partition schemes times the factor of Kirsch and Mitzenmacher''s Theta(1/n) term at the estimated item count)';
COMMENT ON FUNCTION bloom_expected_fpr(bigint, bigint, integer, text) IS
	'expected false-positive rate of a filter of the probing scheme with bits, items and hashes, under that scheme''s model (with Kirsch and Mitzenmacher''s Theta(1/n) term for the double-hashing and partition schemes)';

-- ---------------------------------------------------------------------------
-- Self-sized filters: bloom_fit_agg (docs/fit.md)
-- ---------------------------------------------------------------------------

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

-- The anyelement forms have no combine function, as bloom_agg's (above);
-- the concrete-typed overloads, which Citus pushes down, have one
-- (typed_bloom_fit_agg.sql).  SSPACE is a group of 1,024 distinct values
-- kept as hashes (16 bytes each), a typical middle; a group costs 16 bytes
-- per distinct value up to the ceiling's bit array (default 16 MB).
CREATE FUNCTION bloom_fit_agg_trans(state bloomfilter, value anyelement) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5;
COMMENT ON FUNCTION bloom_fit_agg_trans(bloomfilter, anyelement) IS
	'transition function of bloom_fit_agg(anyelement): adds the value''s hash to the state';
CREATE AGGREGATE bloom_fit_agg(value anyelement) (
	SFUNC = bloom_fit_agg_trans,
	STYPE = bloomfilter,
	SSPACE = 16440,
	FINALFUNC = bloom_fit_agg_final,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_fit_agg(anyelement) IS
	'a bloomfilter of the non-NULL values sized for the distinct values received at a 1% false-positive rate';

CREATE FUNCTION bloom_fit_agg_trans(state bloomfilter, value anyelement, fpr float8) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5;
COMMENT ON FUNCTION bloom_fit_agg_trans(bloomfilter, anyelement, float8) IS
	'transition function of bloom_fit_agg(anyelement, fpr): adds the value''s hash to the state';
CREATE AGGREGATE bloom_fit_agg(value anyelement, fpr float8) (
	SFUNC = bloom_fit_agg_trans,
	STYPE = bloomfilter,
	SSPACE = 16440,
	FINALFUNC = bloom_fit_agg_final,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_fit_agg(anyelement, float8) IS
	'a bloomfilter of the non-NULL values sized for the distinct values received at false-positive rate fpr';

CREATE FUNCTION bloom_fit_agg_trans(state bloomfilter, value anyelement, fpr float8, max_bits bigint) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 5;
COMMENT ON FUNCTION bloom_fit_agg_trans(bloomfilter, anyelement, float8, bigint) IS
	'transition function of bloom_fit_agg(anyelement, fpr, max_bits): adds the value''s hash to the state';
CREATE AGGREGATE bloom_fit_agg(value anyelement, fpr float8, max_bits bigint) (
	SFUNC = bloom_fit_agg_trans,
	STYPE = bloomfilter,
	SSPACE = 16440,
	FINALFUNC = bloom_fit_agg_final,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_fit_agg(anyelement, float8, bigint) IS
	'a bloomfilter of the non-NULL values sized for the distinct values received at false-positive rate fpr, never larger than max_bits';

-- ---- Many values in one call (element-wise functions) ----
-- Each takes an array and works on its elements, in storage order (a
-- multi-dimensional array as unnest reads it; lower bounds play no part),
-- answering element by element as the function for one value does: a
-- filter of arrays (family other) still takes an array as one value through
-- bloom_contains and @>, so these have names of their own (_each, _all,
-- _any, bloom_members).  NULL elements are no values: NULL answers, never
-- members, nothing added.  An array of citext is refused as citext is.
-- bloom_add_each is not strict, as bloom_add: a NULL array returns the
-- filter unchanged.  (cmsketch.sql and topksketch.sql have their own.)
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
