-- bloomsketch 0.1.0 -> 0.2.0
\echo Use "ALTER EXTENSION bloomsketch UPDATE TO '0.2.0'" to load this file. \quit

-- Format version 2 hashes text as UTF-8 and structured values element by
-- element; the C library reads both versions, so no stored value changes.

-- "char" and pg_node_tree convert implicitly to text but are not in text's
-- type category, so a call with one of them matched both the anyelement and
-- the text overloads and failed as ambiguous (42725).  Overloads of their own
-- share the C functions: "char" hashes as the text it casts to, and
-- pg_node_tree is refused with an error that says what to cast to.
DO $$
DECLARE
	t text;
BEGIN
	FOREACH t IN ARRAY ARRAY['"char"', 'pg_node_tree'] LOOP
		EXECUTE format($f$
			CREATE FUNCTION bloom_add(filter bloomfilter, value %1$s) RETURNS bloomfilter
				AS 'MODULE_PATHNAME', 'bloom_add' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1000;
			COMMENT ON FUNCTION bloom_add(bloomfilter, %1$s) IS
				'a copy of the filter with the value added (an overload that keeps %1$s unambiguous)';
			CREATE FUNCTION bloom_contains(filter bloomfilter, value %1$s) RETURNS boolean
				AS 'MODULE_PATHNAME', 'bloom_contains' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10;
			COMMENT ON FUNCTION bloom_contains(bloomfilter, %1$s) IS
				'false if the value was surely never added; true if it probably was';
			CREATE FUNCTION bloom_contained_in(value %1$s, filter bloomfilter) RETURNS boolean
				AS 'MODULE_PATHNAME', 'bloom_contained_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10;
			COMMENT ON FUNCTION bloom_contained_in(%1$s, bloomfilter) IS
				'bloom_contains with its arguments swapped (the function behind <@)';
			CREATE OPERATOR @> (LEFTARG = bloomfilter, RIGHTARG = %1$s,
				FUNCTION = bloom_contains, COMMUTATOR = <@);
			COMMENT ON OPERATOR @> (bloomfilter, %1$s) IS
				'filter probably contains the value (bloom_contains)';
			CREATE OPERATOR <@ (LEFTARG = %1$s, RIGHTARG = bloomfilter,
				FUNCTION = bloom_contained_in, COMMUTATOR = @>);
			COMMENT ON OPERATOR <@ (%1$s, bloomfilter) IS
				'the value is probably contained in filter (bloom_contains)';
			CREATE FUNCTION cms_add(sketch cmsketch, value %1$s, count bigint DEFAULT 1) RETURNS cmsketch
				AS 'MODULE_PATHNAME', 'cms_add' LANGUAGE C IMMUTABLE PARALLEL SAFE COST 1000;
			COMMENT ON FUNCTION cms_add(cmsketch, %1$s, bigint) IS
				'a copy of the sketch with count occurrences of the value added';
			CREATE FUNCTION cms_estimate(sketch cmsketch, value %1$s) RETURNS bigint
				AS 'MODULE_PATHNAME', 'cms_estimate' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 10;
			COMMENT ON FUNCTION cms_estimate(cmsketch, %1$s) IS
				'estimated count of the value: never below the true count';
		$f$, t);
	END LOOP;
END
$$;
