-- The upgrade path: bloomsketch 0.1.0 updated to the default version holds
-- exactly the objects, with the same comments, as a fresh install, and what
-- was stored under 0.1.0 still answers.  (A fresh install runs the 0.1.0
-- script and then the updates; the comparison guards the day a complete
-- install script joins them.)  Runs in a database of its own, since it drops
-- and recreates the extension.
\set regress_db :DBNAME
CREATE DATABASE bs_upgrade;
\c bs_upgrade
SET client_min_messages = warning;

-- (PostgreSQL 17 and later also record a type's implicit array type as a
-- member; it has no comment of its own, and comes and goes with its type.)
CREATE VIEW members AS
SELECT pg_describe_object(d.classid, d.objid, 0) AS object,
       (SELECT c.description FROM pg_description c
        WHERE c.objoid = d.objid AND c.classoid = d.classid AND c.objsubid = 0) AS comment
FROM pg_depend d JOIN pg_extension e ON d.refobjid = e.oid
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND e.extname = 'bloomsketch'
  AND NOT (d.classid = 'pg_type'::regclass AND EXISTS (SELECT 1 FROM pg_type t WHERE t.typarray = d.objid));

CREATE EXTENSION bloomsketch;
CREATE TABLE fresh AS SELECT * FROM members;
-- every object of the extension carries a comment
SELECT object FROM fresh WHERE comment IS NULL ORDER BY 1;
DROP EXTENSION bloomsketch;

CREATE EXTENSION bloomsketch VERSION '0.1.0';
CREATE TABLE stored_under_010 AS
SELECT bloom_agg(i, 100) AS f, cms_agg(i) AS s, bloom_add(bloom_create(10), 'abc') AS t
FROM generate_series(1, 100) i;
-- a view that calls a 0.1.0 text overload stops the update with a list
-- (the error's context, which PostgreSQL 18 extends with the script's
-- statement, is left out)
CREATE VIEW calls_text_overload AS SELECT t @> 'abc'::text AS found FROM stored_under_010;
\set SHOW_CONTEXT never
ALTER EXTENSION bloomsketch UPDATE;
\set SHOW_CONTEXT errors
DROP VIEW calls_text_overload;
ALTER EXTENSION bloomsketch UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'bloomsketch';

-- objects or comments that differ from a fresh install (none)
(SELECT 'only after upgrade' AS side, * FROM members EXCEPT SELECT 'only after upgrade', * FROM fresh)
UNION ALL
(SELECT 'only in fresh install', * FROM fresh EXCEPT SELECT 'only in fresh install', * FROM members)
ORDER BY 2, 1;

-- the stored values answer as before
SELECT count(*) FILTER (WHERE f @> i) AS bloom_found,
       count(*) FILTER (WHERE cms_estimate(s, i) >= 1) AS cms_counted
FROM stored_under_010, generate_series(1, 100) i;
SELECT t @> 'abc' AS literal_found, 'abc' <@ t AS literal_found_swapped,
       t @> 'abc'::varchar AS varchar_found
FROM stored_under_010;

\c :regress_db
DROP DATABASE bs_upgrade;
