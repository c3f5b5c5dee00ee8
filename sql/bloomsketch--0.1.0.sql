-- bloomsketch 0.1.0: Bloom filters as SQL values.
\echo Use "CREATE EXTENSION bloomsketch" to load this file. \quit

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

-- COST (in units of cpu_operator_cost, measured on the benchmark machine at
-- about 40 ns per unit): 5-10 for the per-row hashing and probing functions,
-- 100 for word-at-a-time merges and comparisons, 1000 for anything that
-- copies, scans or (de)serializes a whole value or sizes a new one, 10000 for
-- the exact analysis.  bench/scaleout.sh shows the resulting plans.

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

-- Text overloads, so that an untyped literal ('alice') resolves to text
-- instead of failing polymorphic resolution; they share the C functions.
CREATE FUNCTION bloom_add(filter bloomfilter, value text) RETURNS bloomfilter
	AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_add(bloomfilter, text) IS
	'a copy of the filter with the text value added (lets untyped literals resolve to text)';
CREATE FUNCTION bloom_contains(filter bloomfilter, value text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10;
COMMENT ON FUNCTION bloom_contains(bloomfilter, text) IS
	'false if the text value was surely never added; true if it probably was';
CREATE FUNCTION bloom_contained_in(value text, filter bloomfilter) RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10;
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
	OUT format_version integer, OUT estimated_items float8, OUT current_fpr float8)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION bloom_info(bloomfilter) IS
	'parameters, fill and estimates of a bloomfilter: bits (m), hashes (k), seed, scheme, family, bits_set, items_added, bytes, format_version, estimated_items, current_fpr';

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

-- Strict, so the first non-NULL input becomes the state; later ones are
-- merged into it in place.
CREATE FUNCTION bloom_union_trans(state bloomfilter, filter bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION bloom_union_trans(bloomfilter, bloomfilter) IS
	'transition and combine function of bloom_union_agg, combine function of bloom_agg: ORs a filter into the state in place';

CREATE FUNCTION bloom_intersect_trans(state bloomfilter, filter bloomfilter) RETURNS bloomfilter
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION bloom_intersect_trans(bloomfilter, bloomfilter) IS
	'transition and combine function of bloom_intersect_agg: ANDs a filter into the state in place';

-- SSPACE: the planner cannot see capacity, fpr or epsilon, so the aggregates
-- declare the state of a typical call for its hash-aggregation memory
-- estimates: a filter for 100,000 items at 1% (119,960 bytes) and a count-min
-- sketch at the default epsilon = delta = 0.001 (304,512 bytes).
CREATE AGGREGATE bloom_agg(value anyelement, capacity bigint) (
	SFUNC = bloom_agg_trans,
	STYPE = bloomfilter,
	SSPACE = 119960,
	FINALFUNC = bloom_agg_final,
	COMBINEFUNC = bloom_union_trans,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(anyelement, bigint) IS
	'a bloomfilter of the non-NULL values, sized for capacity items at a 1% false-positive rate';

CREATE AGGREGATE bloom_agg(value anyelement, capacity bigint, fpr float8) (
	SFUNC = bloom_agg_trans,
	STYPE = bloomfilter,
	SSPACE = 119960,
	FINALFUNC = bloom_agg_final,
	COMBINEFUNC = bloom_union_trans,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(anyelement, bigint, float8) IS
	'a bloomfilter of the non-NULL values, sized for capacity items at false-positive rate fpr';

CREATE AGGREGATE bloom_agg(value anyelement, capacity bigint, fpr float8, scheme text) (
	SFUNC = bloom_agg_trans,
	STYPE = bloomfilter,
	SSPACE = 119960,
	FINALFUNC = bloom_agg_final,
	COMBINEFUNC = bloom_union_trans,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE bloom_agg(anyelement, bigint, float8, text) IS
	'a bloomfilter of the non-NULL values with the given probing scheme, sized for capacity items at false-positive rate fpr';

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
COMMENT ON FUNCTION bloom_fpr(bloomfilter) IS
	'false-positive rate of the filter as it is now, from its set bits: prod over i < k of (X - i) / (m - i)';

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
COMMENT ON FUNCTION bloom_expected_fpr(bigint, bigint, integer, text) IS
	'expected false-positive rate of a filter of the probing scheme with bits, items and hashes, under that scheme''s occupancy model';

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
COMMENT ON FUNCTION cmsketch_in(cstring) IS
	'text input of cmsketch: cms:v1:<family>:w=..:d=..:copies=..:seed=..:total=..:<base64 counters>';
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

-- Text overloads, so that an untyped literal ('alice') resolves to text
-- instead of failing polymorphic resolution; they share the C functions.
CREATE FUNCTION cms_add(sketch cmsketch, value text, count bigint DEFAULT 1) RETURNS cmsketch
	AS 'MODULE_PATHNAME', 'cms_add' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION cms_add(cmsketch, text, bigint) IS
	'a copy of the sketch with count occurrences of the text value added (lets untyped literals resolve to text)';
CREATE FUNCTION cms_estimate(sketch cmsketch, value text) RETURNS bigint
	AS 'MODULE_PATHNAME', 'cms_estimate' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10;
COMMENT ON FUNCTION cms_estimate(cmsketch, text) IS
	'estimated count of the text value: never below the true count';

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

CREATE AGGREGATE cms_agg(value anyelement) (
	SFUNC = cms_agg_trans,
	STYPE = cmsketch,
	SSPACE = 304512,
	COMBINEFUNC = cms_merge_trans,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE cms_agg(anyelement) IS
	'a cmsketch counting the non-NULL values, with epsilon = delta = 0.001';

CREATE AGGREGATE cms_agg(value anyelement, epsilon float8, delta float8) (
	SFUNC = cms_agg_trans,
	STYPE = cmsketch,
	SSPACE = 304512,
	COMBINEFUNC = cms_merge_trans,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE cms_agg(anyelement, float8, float8) IS
	'a cmsketch counting the non-NULL values, with error bound epsilon and failure probability delta';

CREATE AGGREGATE cms_agg(value anyelement, count bigint) (
	SFUNC = cms_agg_trans,
	STYPE = cmsketch,
	SSPACE = 304512,
	COMBINEFUNC = cms_merge_trans,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE cms_agg(anyelement, bigint) IS
	'a cmsketch adding count occurrences of each non-NULL value (rows with a NULL count are skipped), with epsilon = delta = 0.001';

CREATE AGGREGATE cms_agg(value anyelement, count bigint, epsilon float8, delta float8) (
	SFUNC = cms_agg_trans,
	STYPE = cmsketch,
	SSPACE = 304512,
	COMBINEFUNC = cms_merge_trans,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE cms_agg(anyelement, bigint, float8, float8) IS
	'a cmsketch adding count occurrences of each non-NULL value (rows with a NULL count are skipped), with error bound epsilon and failure probability delta';

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
