-- The upgrade path: bloomsketch 0.1.0 updated to the default version holds
-- exactly the objects, with the same comments, as a fresh install, and what
-- was stored under 0.1.0 keeps its bytes and its answers.  (A fresh install
-- runs the complete script, the update the 0.1.0 script and then the update
-- script; scripts/compare_installs.sh compares every catalog fact of the
-- two.)  Runs in a database of its own, since it drops and recreates the
-- extension.  test/harness/upgrade_dump.sh takes
-- the other path, pg_dump and pg_restore, with values 0.1.0 itself wrote.
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
-- filters of every scheme and sketches, of ten value families, with the
-- answers 0.1.0's SQL objects give about them (test/data/upgrade_values.sql,
-- read without echo)
\set ECHO none
\i test/data/upgrade_values.sql
\set ECHO all
CREATE TABLE upgrade_answers_010 AS SELECT * FROM upgrade_answers();
SELECT count(*) FILTER (WHERE f IS NOT NULL) AS filters, count(DISTINCT scheme) AS schemes,
       count(*) FILTER (WHERE c IS NOT NULL) AS sketches, count(DISTINCT family) AS families
FROM upgrade_sketches;
-- a view that calls a 0.1.0 text overload stops the update with a list
-- (the error's context, which PostgreSQL 18 extends with the script's
-- statement, is left out)
CREATE VIEW calls_text_overload AS SELECT t @> 'abc'::text AS found FROM stored_under_010;
\set SHOW_CONTEXT never
ALTER EXTENSION bloomsketch UPDATE;
\set SHOW_CONTEXT errors
DROP VIEW calls_text_overload, upgrade_text_probe;
ALTER EXTENSION bloomsketch UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'bloomsketch';
-- recreated as the hint says, the view calls the anyelement operator
CREATE VIEW upgrade_text_probe AS
SELECT id, f @> 'v1'::text AS has_v1, f @> 'v3é'::text AS has_v3
FROM upgrade_sketches WHERE family = 'text' AND f IS NOT NULL;
SELECT pg_describe_object(refclassid, refobjid, 0) AS calls FROM pg_depend
WHERE classid = 'pg_rewrite'::regclass AND refclassid = 'pg_operator'::regclass
  AND objid = (SELECT oid FROM pg_rewrite WHERE ev_class = 'upgrade_text_probe'::regclass)
ORDER BY 1;

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
-- every value has the bytes and gives the answers it had under 0.1.0: the
-- same members found, false positives and count-min estimates (rows that
-- differ, before and after: none)
CREATE TABLE upgrade_answers_020 AS SELECT * FROM upgrade_answers();
(SELECT 'before' AS side, * FROM upgrade_answers_010 EXCEPT SELECT 'before', * FROM upgrade_answers_020)
UNION ALL
(SELECT 'after', * FROM upgrade_answers_020 EXCEPT SELECT 'after', * FROM upgrade_answers_010)
ORDER BY id, side;
SELECT count(*) AS rows, count(bytes) AS values_compared,
       count(*) FILTER (WHERE answer LIKE '%members 100/100%') AS filters_finding_all_members,
       count(*) FILTER (WHERE answer LIKE '%, under 0,%') AS sketches_never_under
FROM upgrade_answers_020;
SELECT id, what, answer FROM upgrade_answers_020 WHERE id IN (-2, -1, 1, 6, 14) ORDER BY id;
-- built again with the updated aggregates, every value has the same bytes
SELECT count(*) AS rebuilt,
       count(*) FILTER (WHERE b.f::bytea IS NOT DISTINCT FROM s.f::bytea
                          AND b.c::bytea IS NOT DISTINCT FROM s.c::bytea) AS identical
FROM upgrade_build() b JOIN upgrade_sketches s USING (id);

\c :regress_db
DROP DATABASE bs_upgrade;
