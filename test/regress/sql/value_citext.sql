-- citext compares case-insensitively and a filter, sketch or summary
-- compares bytes, so a citext value is refused (0A000) on every path, not
-- only where the expression's own type is citext.  Through the concrete
-- text overloads of the aggregates the planner removes every trace of
-- citext (a cast to citext in a view, a citext constant or a custom plan's
-- parameter become plain text), so the refusal happens when PostgreSQL
-- chooses the overload: bloomsketch keeps citext overloads of its
-- aggregates, which refuse, whenever the citext extension is installed.
\set regress_db :DBNAME
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomsketch;
RESET client_min_messages;

-- 1. citext created after bloomsketch.
CREATE EXTENSION citext;
CREATE TABLE names (name text);
INSERT INTO names VALUES ('Alice'), ('alice'), ('Bob');
CREATE VIEW names_ci AS SELECT name::citext AS name FROM names;
CREATE DOMAIN ci_name AS citext;
CREATE TABLE names_domain (name ci_name);
INSERT INTO names_domain VALUES ('Alice');

-- the error in full once
SELECT bloom_agg(name, 10) FROM names_ci;
\set VERBOSITY terse
-- a view column cast to citext, through every aggregate and every form
SELECT bloom_agg(name, 10, 0.01) FROM names_ci;
SELECT bloom_agg(name, 10, 0.01, 'blocked') FROM names_ci;
SELECT cms_agg(name) FROM names_ci;
SELECT cms_agg(name, 0.01, 0.01) FROM names_ci;
SELECT cms_agg(name, 2) FROM names_ci;
SELECT cms_agg(name, 2, 0.01, 0.01) FROM names_ci;
SELECT bloom_fit_agg(name) FROM names_ci;
SELECT bloom_fit_agg(name, 0.01) FROM names_ci;
SELECT bloom_fit_agg(name, 0.01, 1024) FROM names_ci;
SELECT topk_agg(name, 3) FROM names_ci;
SELECT topk_agg(name, 3, 0.1) FROM names_ci;
-- a cast written in the query
SELECT bloom_agg(name::citext, 10) FROM names;
-- a domain over citext
SELECT bloom_agg(name, 10) FROM names_domain;
SELECT cms_agg(name) FROM names_domain;
SELECT topk_agg(name, 3) FROM names_domain;
SELECT bloom_fit_agg('Alice'::ci_name);
-- constants, which the planner folds to text
SELECT bloom_agg('Alice'::citext, 10);
SELECT cms_agg('Alice'::citext);
SELECT bloom_fit_agg('Alice'::citext);
SELECT topk_agg('Alice'::citext, 3);
-- parameters, in custom and generic plans
PREPARE build_filter(citext) AS SELECT bloom_agg($1, 10);
PREPARE build_sketch(citext) AS SELECT cms_agg($1);
PREPARE build_summary(citext) AS SELECT topk_agg($1, 3);
PREPARE build_fit(citext) AS SELECT bloom_fit_agg($1);
PREPARE probe_filter(citext) AS SELECT bloom_create(10) @> $1;
SET plan_cache_mode = force_custom_plan;
EXECUTE build_filter('Alice');
EXECUTE build_sketch('Alice');
EXECUTE build_summary('Alice');
EXECUTE build_fit('Alice');
EXECUTE probe_filter('Alice');
SET plan_cache_mode = force_generic_plan;
EXECUTE build_filter('Alice');
EXECUTE build_sketch('Alice');
EXECUTE build_summary('Alice');
EXECUTE build_fit('Alice');
EXECUTE probe_filter('Alice');
RESET plan_cache_mode;
DEALLOCATE ALL;
-- PL/pgSQL variables (three runs: PL/pgSQL switches to a generic plan
-- after five custom ones at most) and SQL functions
DO $$
DECLARE
	value citext := 'Alice';
	filter bloomfilter;
BEGIN
	FOR i IN 1..3 LOOP
		SELECT bloom_agg(value, 10) INTO filter;
	END LOOP;
END
$$;
DO $$
DECLARE
	value citext := 'Alice';
	summary topksketch;
BEGIN
	SELECT topk_agg(value, 3) INTO summary;
END
$$;
CREATE FUNCTION filter_of(value citext) RETURNS bloomfilter
	LANGUAGE sql AS $$ SELECT bloom_agg(value, 10) $$;
SELECT filter_of('Alice');
DROP FUNCTION filter_of(citext);
-- probes and additions (anyelement) see citext as it is
SELECT bloom_create(10) @> name FROM names_ci;
SELECT bloom_add(bloom_create(10), name) FROM names_ci;
SELECT cms_add(cms_create(), name) FROM names_domain;
SELECT cms_estimate(cms_create(), 'Alice'::citext);
SELECT topk_add(topk_create(3), name) FROM names_domain;
SELECT topk_add(topk_create(3), 'Alice'::citext, 2);
SELECT topk_estimate(topk_create(3), 'Alice'::citext);
SELECT topk_bounds(topk_create(3), name) FROM names_ci;
-- text still builds what it built, and lower() is the way to ignore case
SELECT bloom_agg(lower(name), 10) @> 'alice'::text AS found_lower FROM names;
SELECT topk_agg(name::text, 3) = topk_agg(name, 3) AS text_unchanged FROM names;
\set VERBOSITY default

-- citext can be dropped without CASCADE, and takes the overloads along;
-- text columns keep their aggregates
DROP VIEW names_ci;
DROP TABLE names_domain;
DROP DOMAIN ci_name;
DROP EXTENSION citext;
SELECT count(*) AS citext_overloads FROM pg_proc
WHERE proargtypes::regtype[]::text[] && ARRAY['citext'];
SELECT bloom_agg(name, 10) IS NOT NULL AS text_agg FROM names;

-- 2. citext installed before bloomsketch, and before an update from 0.1.0.
CREATE DATABASE bs_citext;
\c bs_citext
SET client_min_messages = warning;
CREATE EXTENSION citext;
CREATE EXTENSION bloomsketch;
RESET client_min_messages;
\set VERBOSITY terse
SELECT bloom_agg('Alice'::citext, 10);
SELECT topk_agg('Alice'::citext, 3);
\set VERBOSITY default
-- bloomsketch drops cleanly too, and an update adds the overloads
DROP EXTENSION bloomsketch;
CREATE EXTENSION bloomsketch VERSION '0.1.0';
ALTER EXTENSION bloomsketch UPDATE;
\set VERBOSITY terse
SELECT cms_agg('Alice'::citext);
\set VERBOSITY default
-- the overloads belong to bloomsketch, so pg_dump leaves them to
-- CREATE EXTENSION: one per aggregate form with a text overload
SELECT count(*) AS citext_aggregates
FROM pg_depend d JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'bloomsketch')
  AND d.deptype = 'e' AND p.prokind = 'a' AND p.proargtypes[0] = 'citext'::regtype;
-- citext is a trusted extension: a user who may create it gets the
-- overloads too.  A view that uses one is named when citext goes; its
-- CASCADE would take the view, not bloomsketch.
DROP EXTENSION citext;
CREATE ROLE regress_citext_user;
GRANT CREATE ON DATABASE bs_citext TO regress_citext_user;
SET ROLE regress_citext_user;
CREATE EXTENSION citext;
\set VERBOSITY terse
SELECT bloom_fit_agg('Alice'::citext);
-- the function that adds and removes the overloads runs as bloomsketch's
-- owner: only the event triggers may call it, not this user
SELECT bloomsketch_citext_overloads(false);
\set VERBOSITY default
RESET ROLE;
CREATE VIEW filter_of_citext AS SELECT bloom_agg('Alice'::citext, 10) AS f;
DROP EXTENSION citext;
SELECT extname FROM pg_extension WHERE extname = 'bloomsketch';
DROP EXTENSION citext CASCADE;
SELECT extname FROM pg_extension ORDER BY 1;
\c :regress_db
DROP DATABASE bs_citext;
DROP ROLE regress_citext_user;
DROP TABLE names;
