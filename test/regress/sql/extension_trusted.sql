-- bloomsketch is a trusted extension: a user without superuser rights who
-- may CREATE in a database installs it, in the released version and by the
-- update as well as directly, and uses its three types.  PostgreSQL runs a
-- trusted extension's scripts as the bootstrap superuser, in a schema the
-- installing user chooses, so this user is hostile: before the scripts run
-- it plants in that schema functions and operators that would win over
-- pg_catalog's for calls the scripts could make unqualified (format with
-- text arguments, quote_ident of a name, = between oid and the reg*
-- types), and after it a text overload of the function bloomsketch's event
-- trigger calls as superuser.
-- Each records who called it: a recorded call would be a way to superuser.
-- Runs in a database of its own.
\set regress_db :DBNAME
SET client_min_messages = warning;
CREATE ROLE regress_bs_installer;
CREATE DATABASE bs_trusted;
GRANT CREATE ON DATABASE bs_trusted TO regress_bs_installer;
\c bs_trusted
SET client_min_messages = warning;
SET ROLE regress_bs_installer;
SELECT rolsuper FROM pg_roles WHERE rolname = current_user;

-- the trojans, which answer as the functions they shadow would
CREATE SCHEMA hostile;
CREATE TABLE hostile.calls (trojan text, called_by name);
CREATE SCHEMA sketches;
CREATE FUNCTION sketches.format(f text, a text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO hostile.calls VALUES ('format(text, text)', current_user);
	RETURN pg_catalog.format(f, a);
END $$;
CREATE FUNCTION sketches.format(f text, a text, b text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO hostile.calls VALUES ('format(text, text, text)', current_user);
	RETURN pg_catalog.format(f, a, b);
END $$;
CREATE FUNCTION sketches.format(f text, a text, b text, c text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO hostile.calls VALUES ('format(text, text, text, text)', current_user);
	RETURN pg_catalog.format(f, a, b, c);
END $$;
CREATE FUNCTION sketches.format(f text, a text, b text, c text, d text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO hostile.calls VALUES ('format(text, text, text, text, text)', current_user);
	RETURN pg_catalog.format(f, a, b, c, d);
END $$;
-- (the event trigger's functions quote the schema's name, of type name,
-- for which pg_catalog has only quote_ident(text))
CREATE FUNCTION sketches.quote_ident(n name) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO hostile.calls VALUES ('quote_ident(name)', current_user);
	RETURN pg_catalog.quote_ident(n::text);
END $$;
CREATE FUNCTION hostile.oid_is(a oid, b regclass) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO hostile.calls VALUES ('=(oid, regclass)', current_user);
	RETURN a OPERATOR(pg_catalog.=) b::oid;
END $$;
CREATE FUNCTION hostile.oid_is(a oid, b regoperator) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO hostile.calls VALUES ('=(oid, regoperator)', current_user);
	RETURN a OPERATOR(pg_catalog.=) b::oid;
END $$;
CREATE FUNCTION hostile.oid_is(a oid, b regprocedure) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO hostile.calls VALUES ('=(oid, regprocedure)', current_user);
	RETURN a OPERATOR(pg_catalog.=) b::oid;
END $$;
CREATE OPERATOR sketches.= (LEFTARG = oid, RIGHTARG = regclass, FUNCTION = hostile.oid_is);
CREATE OPERATOR sketches.= (LEFTARG = oid, RIGHTARG = regoperator, FUNCTION = hostile.oid_is);
CREATE OPERATOR sketches.= (LEFTARG = oid, RIGHTARG = regprocedure, FUNCTION = hostile.oid_is);
-- (each is called where the scripts' calls would resolve to it)
SET search_path = sketches;
SELECT format('%s', 'a'::text) AS via_format, 'pg_proc'::regclass::oid = 'pg_proc'::regclass AS via_oid_eq,
       quote_ident(nspname) AS via_quote_ident
FROM pg_namespace WHERE nspname = 'sketches';
SELECT trojan FROM hostile.calls ORDER BY 1;
TRUNCATE hostile.calls;

-- 1. The released version, then the update
CREATE EXTENSION bloomsketch VERSION '0.1.0' SCHEMA sketches;
SELECT bloom_add(bloom_create(100), 42) @> 42 AS bloom_010,
       cms_estimate(cms_add(cms_create(0.01, 0.01), 'x'), 'x') AS cms_010;
ALTER EXTENSION bloomsketch UPDATE;
SELECT extversion, extowner::regrole, extnamespace::regnamespace
FROM pg_extension WHERE extname = 'bloomsketch';
-- calls of the trojans during install or update: none
SELECT trojan, called_by FROM hostile.calls ORDER BY 1;

-- 2. A direct install of the default version, with the trojans in place
DROP EXTENSION bloomsketch;
CREATE EXTENSION bloomsketch SCHEMA sketches;
SELECT trojan, called_by FROM hostile.calls ORDER BY 1;
-- the scripts ran as the bootstrap superuser, who owns what they made
-- (the event trigger functions among it); the extension is the user's
SELECT count(*) FILTER (WHERE p.proowner <> 10) AS not_bootstrap_owned,
       count(*) FILTER (WHERE p.prosecdef) AS security_definer
FROM pg_depend d JOIN pg_proc p ON d.classid = 'pg_proc'::regclass::oid AND d.objid = p.oid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'bloomsketch')
  AND d.deptype = 'e';

-- the three types, as the installing user
CREATE TABLE events (customer int, item text);
INSERT INTO events SELECT i % 3, 'item' || (i % 7) FROM generate_series(1, 300) i;
SELECT customer, bloom_agg(item, 100) @> 'item1' AS bloom,
       cms_estimate(cms_agg(item), 'item1') >= count(*) FILTER (WHERE item = 'item1') AS cms,
       (SELECT count(*) FROM topk_items(topk_agg(item, 7))) AS topk_items,
       bloom_fit_agg(item) @> 'item6' AS fit
FROM events GROUP BY customer ORDER BY customer;

-- 3. citext (trusted in contrib) after bloomsketch: the event trigger adds
-- the overloads that refuse citext, for this user's install too
CREATE EXTENSION citext SCHEMA hostile;
\set VERBOSITY terse
SELECT bloom_agg('Alice'::hostile.citext, 10);
SELECT topk_agg(item::hostile.citext, 3) FROM events;
\set VERBOSITY default
SELECT count(*) AS citext_aggregates
FROM pg_depend d JOIN pg_proc p ON d.classid = 'pg_proc'::regclass::oid AND d.objid = p.oid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'bloomsketch')
  AND d.deptype = 'e' AND p.prokind = 'a' AND p.proargtypes[0] = 'hostile.citext'::regtype;

-- 4. The event trigger runs as the bootstrap superuser on any user's DDL.
-- A text overload of the function it calls, in bloomsketch's schema, would
-- win for a literal 'true': it must never be called.
CREATE FUNCTION sketches.bloomsketch_citext_overloads(wanted text) RETURNS void
	LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO hostile.calls VALUES ('bloomsketch_citext_overloads(text)', current_user);
END $$;
CREATE SCHEMA doomed;
DROP SCHEMA doomed;
DROP TABLE events;
DROP EXTENSION citext;
SELECT trojan, called_by FROM hostile.calls ORDER BY 1;
-- with citext gone, so are the overloads
SELECT count(*) AS citext_overloads FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'sketches' AND p.proname IN ('bloom_agg', 'cms_agg', 'bloom_fit_agg', 'topk_agg')
  AND p.pronargs > 0 AND format_type(p.proargtypes[0], NULL) LIKE '%citext';

-- the user removes what it made; then the role goes
DROP EXTENSION bloomsketch;
DROP SCHEMA sketches, hostile CASCADE;
RESET ROLE;
\c :regress_db
DROP DATABASE bs_trusted;
DROP ROLE regress_bs_installer;
