-- What ALTER EXTENSION bloomsketch UPDATE from 0.1.0 runs before the
-- statements of sql/src/*.sql marked @since 0.2.0 (a fresh install does not
-- run it): it removes what 0.2.0 no longer has, and what the sources
-- create anew in another form.

-- 0.1.0's text overloads, which PostgreSQL also picked for citext values
-- (citext casts implicitly to text) and which hashed them as case-sensitive
-- text, give way to bloomsketch_literal (literal.sql).  An object that uses
-- one stops the update with the list of such objects and what to do.
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

-- bloom_info gains a column (over_ceiling, bloomfilter.sql), which only a
-- new function can have.
DROP FUNCTION bloom_info(bloomfilter);
