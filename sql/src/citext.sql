-- citext refused however it arrives: the overloads of the aggregates that
-- refuse citext values while the citext extension is installed, the
-- function that adds or removes them, and the event triggers that call it.
-- It comes after every aggregate it covers.  Its function builds SQL at run
-- time on purpose: the overloads exist only while citext does, and their
-- argument type is citext's.

-- @since 0.2.0
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
