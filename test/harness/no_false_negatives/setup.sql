-- Setup of the main (UTF8) database for test/harness/no_false_negatives.sh: the value
-- sets, the filters stored in tables and the helper functions the checks use.
-- Every value set has columns (id, v, cnt): cnt is how often v occurs in the
-- stream a count-min sketch is built from.  Unless a comment says otherwise the
-- values of a set are distinct by construction (each embeds its id), so cnt is
-- the true count of v.
CREATE EXTENSION bloomsketch;
CREATE EXTENSION citext;
CREATE TABLE nfn_citext (v citext);
INSERT INTO nfn_citext VALUES ('Abc');

CREATE TYPE pair AS (a int, b text);
CREATE TYPE nfn_mood AS ENUM ('sad', 'ok', 'happy');

-- Probes made by procedural code (prepared INSERTs, PL/pgSQL, cursors,
-- triggers) are recorded here, one row per probe; a check then reads its own.
CREATE TABLE nfn_tally (check_name text NOT NULL, prober text NOT NULL, hit boolean);

-- ---------------------------------------------------------------------------
-- Value sets in every storage form a text value can have.  The storage
-- assertions of the test verify that each form really occurs.

-- inline, 1-byte varlena header (under 127 bytes)
CREATE TABLE st_short (id int, v text, cnt int);
INSERT INTO st_short SELECT i, md5(i::text) || i, 1 + i % 3 FROM generate_series(1, 300) i;

-- inline, 4-byte header, not compressed (~200 bytes: the row stays under the
-- TOAST threshold, so nothing compresses it)
CREATE TABLE st_long4 (id int, v text, cnt int);
INSERT INTO st_long4 SELECT i, (SELECT string_agg(md5(i || ':' || j), '') FROM generate_series(1, 6) j) || i,
	1 + i % 3 FROM generate_series(1, 200) i;

-- compressed inline: 3 kB that compress to a few dozen bytes
CREATE TABLE st_cmp_inline (id int, v text, cnt int);
INSERT INTO st_cmp_inline SELECT i, repeat('ab', 1500) || i, 1 + i % 3 FROM generate_series(1, 100) i;

-- out of line, compressed: ~192 kB each, a 3.2 kB block of md5 hex repeated
-- 60 times (pglz finds the repeats, the hex itself barely compresses), so the
-- compressed value is still several kB: a multi-chunk compressed TOAST value
CREATE TABLE st_ool_cmp (id int, v text, cnt int);
INSERT INTO st_ool_cmp SELECT i, repeat((SELECT string_agg(md5(i || '/' || j), '') FROM generate_series(1, 100) j), 60) || i,
	1 + i % 3 FROM generate_series(1, 40) i;

-- out of line, uncompressed (STORAGE EXTERNAL): ~19 kB of md5 hex each
CREATE TABLE st_ool_ext (id int, v text, cnt int);
ALTER TABLE st_ool_ext ALTER COLUMN v SET STORAGE EXTERNAL;
INSERT INTO st_ool_ext SELECT i, (SELECT string_agg(md5(i || '#' || j), '') FROM generate_series(1, 600) j) || i,
	1 + i % 3 FROM generate_series(1, 40) i;

-- the same values as st_ool_cmp, stored again by another table: the same
-- contents behind other TOAST pointers
CREATE TABLE st_ool_copy (id int, v text, cnt int);
INSERT INTO st_ool_copy SELECT * FROM st_ool_cmp;

-- integers (bigint), distinct: i * 2654435761 mod a prime larger than 1000
CREATE TABLE b_int (id int, v int8, cnt int);
INSERT INTO b_int SELECT i, (i * 2654435761) % 1000000007, 1 + i % 3 FROM generate_series(1, 1000) i;

-- a function the planner cannot inline, to probe with values that come from
-- an expression rather than a column
CREATE FUNCTION nfn_id(t text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN RETURN t; END $$;

-- ---------------------------------------------------------------------------
-- Filters and sketches stored in tables (TOASTed: the large ones out of line,
-- compressed in stored, uncompressed in stored_ext), for the probing paths.
CREATE TABLE stored (name text PRIMARY KEY, f bloomfilter);
CREATE TABLE stored_ext (name text PRIMARY KEY, f bloomfilter);
ALTER TABLE stored_ext ALTER COLUMN f SET STORAGE EXTERNAL;
CREATE TABLE stored_cms (name text PRIMARY KEY, s cmsketch);

INSERT INTO stored
SELECT 'ool small', bloom_agg(v, 1000) FROM st_ool_cmp UNION ALL
SELECT 'ool large', bloom_agg(v, 4000000, 0.01) FROM st_ool_cmp UNION ALL
SELECT 'ext small', bloom_agg(v, 1000) FROM st_ool_ext UNION ALL
SELECT 'ext large', bloom_agg(v, 4000000, 0.01) FROM st_ool_ext UNION ALL
SELECT 'int small', bloom_agg(v, 1000) FROM b_int UNION ALL
SELECT 'int large', bloom_agg(v, 4000000, 0.01) FROM b_int UNION ALL
-- self-sized filters (bloom_fit_agg with 1, 2 and 3 arguments; the integers'
-- 1,000 values pass 65,536 / 256, so their state took the bits form)
SELECT 'ool fit', bloom_fit_agg(v) FROM st_ool_cmp UNION ALL
SELECT 'ext fit', bloom_fit_agg(v, 0.001) FROM st_ool_ext UNION ALL
SELECT 'int fit', bloom_fit_agg(v, 0.01, 65536) FROM b_int;
-- f::bytea::bloomfilter makes fresh values: copying the column as it is
-- would keep the compressed bytes, which STORAGE EXTERNAL does not undo
INSERT INTO stored_ext SELECT name, f::bytea::bloomfilter FROM stored;
INSERT INTO stored_cms
SELECT 'ool', cms_agg(v) FROM st_ool_cmp, generate_series(1, cnt) UNION ALL
SELECT 'ext', cms_agg(v) FROM st_ool_ext, generate_series(1, cnt) UNION ALL
SELECT 'int', cms_agg(v) FROM b_int, generate_series(1, cnt);

-- Stored filters, sketches and values as function results, for the
-- parameters of EXECUTE (which takes expressions but not subqueries).
CREATE FUNCTION nfn_filter(tbl text, filter_name text) RETURNS bloomfilter LANGUAGE sql STABLE AS $$
	SELECT f FROM stored WHERE tbl = 'stored' AND name = filter_name
	UNION ALL SELECT f FROM stored_ext WHERE tbl = 'stored_ext' AND name = filter_name $$;
CREATE FUNCTION nfn_sketch(sketch_name text) RETURNS cmsketch LANGUAGE sql STABLE AS $$
	SELECT s FROM stored_cms WHERE name = sketch_name $$;
CREATE FUNCTION nfn_text_value(tbl text, k int) RETURNS text LANGUAGE sql STABLE AS $$
	SELECT v FROM st_ool_cmp WHERE tbl = 'st_ool_cmp' AND id = k
	UNION ALL SELECT v FROM st_ool_ext WHERE tbl = 'st_ool_ext' AND id = k $$;

-- ---------------------------------------------------------------------------
-- Parallel sets: large enough for a parallel scan to split among processes.
CREATE TABLE par_int (id int, v int8, cnt int);
INSERT INTO par_int SELECT i, i::int8 * 7919, 1 + i % 3 FROM generate_series(1, 100000) i;
-- short text plus the 40 out-of-line values (copied: TOASTed again in par_text)
CREATE TABLE par_text (id int, v text, cnt int);
INSERT INTO par_text SELECT i, md5(i::text) || '-' || i, 1 + i % 3 FROM generate_series(1, 20000) i;
INSERT INTO par_text SELECT 100000 + id, v, cnt FROM st_ool_cmp;
-- text[] with non-ASCII elements (U+00E9, built with chr() so that the
-- script's own encoding does not matter)
CREATE TABLE par_arr (id int, v text[], cnt int);
INSERT INTO par_arr SELECT i, ARRAY[chr(233) || i, 'caf' || chr(233), md5(i::text)], 1 + i % 3
	FROM generate_series(1, 20000) i;
-- per-group filters and sketches for the parallel union / intersection / merge:
-- group g holds g .. g+4 and the 50 values -1 .. -50 that every group holds
CREATE TABLE par_groups (g int, f bloomfilter, s cmsketch);
INSERT INTO par_groups
SELECT g, bloom_agg(x, 1000), cms_agg(x, 0.01, 0.01)
FROM generate_series(1, 2000) g,
	LATERAL (SELECT g + k AS x FROM generate_series(0, 4) k UNION ALL SELECT -k FROM generate_series(1, 50) k) xs
GROUP BY g;
-- Heavy-hitter streams (topksketch) large enough for a parallel scan: each
-- value of the set occurs cnt times, except the values of id 1, 2 and 3,
-- which occur W, 2 W and 3 W times (nfn_weight), W chosen so that exactly
-- those three occur more than N / 101 times among the N rows; rows in a
-- shuffled (but fixed) order.
CREATE FUNCTION nfn_weight(id int, cnt int, w int) RETURNS int LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN id BETWEEN 1 AND 3 THEN id * w ELSE cnt END $$;
CREATE TABLE hh_par_int AS SELECT t.id, t.v, r FROM par_int t, generate_series(1, nfn_weight(t.id, t.cnt, 5000)) r
	ORDER BY md5(t.id || ':' || r);
CREATE TABLE hh_par_text AS SELECT t.id, t.v, r FROM par_text t, generate_series(1, nfn_weight(t.id, t.cnt, 1000)) r
	ORDER BY md5(t.id || ':' || r);
ANALYZE;

-- ---------------------------------------------------------------------------
-- Helpers.

-- The partial state of bloom_fit_agg(v, fpr, max_bits) (its transition
-- function alone), and which form it has: 'bits' when its m is the ceiling's
-- bits plus the two words of rate and ceiling (docs/format.md), else 'hashes'.
CREATE AGGREGATE nfn_fit_state(anyelement, float8, bigint) (SFUNC = bloom_fit_agg_trans, STYPE = bloomfilter);
CREATE FUNCTION nfn_fit_form(state bloomfilter, ceiling bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN split_part(state::text, ':', 6) = 'm=' || (128 + ceiling) THEN 'bits' ELSE 'hashes' END $$;

-- The n the final function sizes a state's filter for (docs/format.md,
-- "Sizing"): the number of hash pairs of the hashes form, or the estimate
-- from the s set bits of the bits form, NULL when every bit is set.
CREATE FUNCTION nfn_fit_n(state bloomfilter, ceiling bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN nfn_fit_form(state, ceiling) = 'hashes' THEN (length(p.payload) - 16) / 16
		WHEN p.s < ceiling THEN floor(ln(1 - p.s::float8 / ceiling) / (p.k * ln(1 - 1 / ceiling::float8)) + 0.5)::bigint
		END
	FROM (SELECT decode(split_part(state::text, ':', 9), 'base64') AS payload,
			substr(split_part(state::text, ':', 5), 3)::int AS k,
			bit_count(substr(decode(split_part(state::text, ':', 9), 'base64'), 17)) AS s) p $$;
-- Whether bloom_fit_agg(v, rate, ceiling) must be flagged over its ceiling:
-- no size up to the ceiling has an expected rate within the rate for that n.
CREATE FUNCTION nfn_fit_over_ceiling(n bigint, rate float8, ceiling bigint) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
	SELECT n IS NULL OR bloom_fpr_exact(ceiling, n, round(log(2, (1 / rate)::numeric))::int) > rate $$;

-- The plan of a statement as text (EXPLAIN with the given options).
CREATE FUNCTION nfn_explain(q text, opts text DEFAULT 'COSTS OFF') RETURNS text LANGUAGE plpgsql AS $$
DECLARE line text; plan text := '';
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (' || opts || ') ' || q LOOP plan := plan || line || E'\n'; END LOOP;
	RETURN plan;
END $$;

-- How many distinct values a table keeps in its TOAST table.
CREATE FUNCTION nfn_toasted_values(tbl regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE toast regclass; n bigint;
BEGIN
	SELECT nullif(reltoastrelid, 0) INTO toast FROM pg_class WHERE oid = tbl;
	IF toast IS NULL THEN RETURN 0; END IF;
	EXECUTE format('SELECT count(DISTINCT chunk_id) FROM %s', toast) INTO n;
	RETURN n;
END $$;

-- The SQLSTATE a statement raises, or 'accepted' when it raises nothing.
CREATE FUNCTION nfn_sqlstate(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE st text;
BEGIN
	EXECUTE q;
	RETURN 'accepted';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE;
	RETURN st;
END $$;

-- bloom_add and cms_add in a PL/pgSQL loop over a table's values (in id
-- order), returning what they built.
CREATE FUNCTION nfn_add_loop(tbl regclass, capacity bigint, scheme text DEFAULT 'double') RETURNS bloomfilter
LANGUAGE plpgsql AS $$
DECLARE f bloomfilter := bloom_create(capacity, 0.01, 0, scheme); r record;
BEGIN
	FOR r IN EXECUTE format('SELECT v FROM %s ORDER BY id', tbl) LOOP
		f := bloom_add(f, r.v);
	END LOOP;
	RETURN f;
END $$;
CREATE FUNCTION nfn_cms_loop(tbl regclass) RETURNS cmsketch LANGUAGE plpgsql AS $$
DECLARE s cmsketch := cms_create(); r record;
BEGIN
	FOR r IN EXECUTE format('SELECT v, cnt FROM %s ORDER BY id', tbl) LOOP
		s := cms_add(s, r.v, r.cnt);
	END LOOP;
	RETURN s;
END $$;

-- Records the outcome of probes counted in PL/pgSQL variables: one nfn_tally
-- row per probe, the first (probes - misses) of them hits.
CREATE FUNCTION nfn_record(check_name text, prober text, probes int, misses int) RETURNS void LANGUAGE sql AS $$
	INSERT INTO nfn_tally SELECT check_name, prober, g <= probes - misses FROM generate_series(1, probes) g $$;

-- The PL/pgSQL loops below probe in PL/pgSQL expressions (IF conditions),
-- which PL/pgSQL evaluates with call sites that live across iterations, and
-- count in variables: that is how the known bug showed (a 4 MB+ filter held
-- in a variable and replaced by each bloom_add was answered from a stale
-- copy).  Probing inside an SQL statement in the loop would hide it, as each
-- statement gets fresh call sites; but SQL statements receive the values
-- differently (as parameters, TOAST pointers included), so the probes at the
-- end are also made once more in an SQL statement.

-- Integers 1..n: the loop of the bug report, probing every 4th value just
-- after adding it (n / 4 probes); then all n probed at the end (3 n); then
-- the same with a 4 MB count-min sketch (cms_create(0.0001, 0.001)) in a
-- variable (n / 4 + n).
CREATE FUNCTION nfn_plpgsql_int_loop(check_name text, capacity bigint, n int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE f bloomfilter; s cmsketch; i int; probes int := 0; misses int := 0; misses2 int := 0; misses3 int := 0;
BEGIN
	f := bloom_create(capacity, 0.01);
	FOR i IN 1 .. n LOOP
		f := bloom_add(f, i);
		IF i % 4 = 0 THEN
			probes := probes + 1;
			IF NOT bloom_contains(f, i) THEN misses := misses + 1; END IF;
		END IF;
	END LOOP;
	PERFORM nfn_record(check_name, 'bloom_contains just after bloom_add', probes, misses);
	misses := 0;
	FOR i IN 1 .. n LOOP
		IF NOT bloom_contains(f, i) THEN misses := misses + 1; END IF;
		IF NOT f @> i THEN misses2 := misses2 + 1; END IF;
		INSERT INTO nfn_tally VALUES (check_name, 'bloom_contains in an SQL statement, at the end', bloom_contains(f, i));
	END LOOP;
	PERFORM nfn_record(check_name, 'bloom_contains at the end', n, misses);
	PERFORM nfn_record(check_name, '@> at the end', n, misses2);

	s := cms_create(0.0001, 0.001);
	probes := 0; misses := 0; misses2 := 0;
	FOR i IN 1 .. n LOOP
		s := cms_add(s, i, i % 3 + 1);
		IF i % 4 = 0 THEN
			probes := probes + 1;
			IF cms_estimate(s, i) < i % 3 + 1 THEN misses := misses + 1; END IF;
		END IF;
	END LOOP;
	FOR i IN 1 .. n LOOP
		IF cms_estimate(s, i) < i % 3 + 1 THEN misses2 := misses2 + 1; END IF;
	END LOOP;
	PERFORM nfn_record(check_name, 'cms_estimate (4 MB sketch) just after cms_add', probes, misses);
	PERFORM nfn_record(check_name, 'cms_estimate (4 MB sketch) at the end', n, misses2);
END $$;

-- The same with the text values of a table (out-of-line ones, in the checks):
-- every 4th value probed just after adding it, then all n values again
-- (3 n), then a sketch likewise (n / 4 + n).
CREATE FUNCTION nfn_plpgsql_text_loop(check_name text, tbl regclass, capacity bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE f bloomfilter; s cmsketch; r record; i int := 0; n int := 0;
	probes int := 0; misses int := 0; misses2 int := 0; cprobes int := 0; cmisses int := 0; cmisses2 int := 0;
BEGIN
	f := bloom_create(capacity, 0.01);
	s := cms_create();
	FOR r IN EXECUTE format('SELECT v, cnt FROM %s ORDER BY id', tbl) LOOP
		i := i + 1;
		f := bloom_add(f, r.v);
		IF i % 4 = 0 THEN
			probes := probes + 1;
			IF NOT bloom_contains(f, r.v) THEN misses := misses + 1; END IF;
		END IF;
	END LOOP;
	PERFORM nfn_record(check_name, 'bloom_contains just after bloom_add', probes, misses);
	misses := 0;
	FOR r IN EXECUTE format('SELECT v, cnt FROM %s ORDER BY id', tbl) LOOP
		n := n + 1;
		IF NOT bloom_contains(f, r.v) THEN misses := misses + 1; END IF;
		IF NOT r.v <@ f THEN misses2 := misses2 + 1; END IF;
		INSERT INTO nfn_tally VALUES (check_name, 'bloom_contains in an SQL statement, at the end', bloom_contains(f, r.v));
		s := cms_add(s, r.v, r.cnt);
		IF n % 4 = 0 THEN
			cprobes := cprobes + 1;
			IF cms_estimate(s, r.v) < r.cnt THEN cmisses := cmisses + 1; END IF;
		END IF;
	END LOOP;
	PERFORM nfn_record(check_name, 'bloom_contains at the end', n, misses);
	PERFORM nfn_record(check_name, '<@ at the end', n, misses2);
	PERFORM nfn_record(check_name, 'cms_estimate just after cms_add', cprobes, cmisses);
	FOR r IN EXECUTE format('SELECT v, cnt FROM %s ORDER BY id', tbl) LOOP
		IF cms_estimate(s, r.v) < r.cnt THEN cmisses2 := cmisses2 + 1; END IF;
	END LOOP;
	PERFORM nfn_record(check_name, 'cms_estimate at the end', n, cmisses2);
END $$;

-- A stored filter read into a variable, then probed with the table's values
-- while new values are added to the variable as the loop goes.
CREATE FUNCTION nfn_plpgsql_stored_loop(check_name text, filter_table regclass, filter_name text, tbl regclass)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE f bloomfilter; r record; n int := 0; misses int := 0; misses2 int := 0;
BEGIN
	EXECUTE format('SELECT f FROM %s WHERE name = $1', filter_table) INTO f USING filter_name;
	FOR r IN EXECUTE format('SELECT id, v FROM %s ORDER BY id', tbl) LOOP
		n := n + 1;
		IF NOT bloom_contains(f, r.v) THEN misses := misses + 1; END IF;
		f := bloom_add(f, 'added in the loop ' || r.id);
		IF NOT f @> ('added in the loop ' || r.id) THEN misses2 := misses2 + 1; END IF;
	END LOOP;
	PERFORM nfn_record(check_name, 'stored values, probed in the loop', n, misses);
	PERFORM nfn_record(check_name, 'values added in the loop', n, misses2);
END $$;

-- Fetches the named cursor one row at a time until it is exhausted.  The
-- cursor's query returns v, f, a self-sized filter fit and its own answers
-- q_contains, q_contained_in, q_fit and q_cms; the loop records those and
-- probes f @> v and fit @> v itself, in PL/pgSQL expressions and in an SQL
-- statement (8 probes per row).
CREATE FUNCTION nfn_drain_cursor(cur refcursor, check_name text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE r record; hit boolean; fit_hit boolean;
BEGIN
	LOOP
		FETCH cur INTO r;
		EXIT WHEN NOT FOUND;
		hit := r.f @> r.v;   -- a PL/pgSQL expression: its call site lives across fetches
		fit_hit := r.fit @> r.v;
		INSERT INTO nfn_tally VALUES (check_name, 'bloom_contains in the cursor''s query', r.q_contains),
			(check_name, '<@ in the cursor''s query', r.q_contained_in),
			(check_name, 'bloom_contains (fit) in the cursor''s query', r.q_fit),
			(check_name, 'cms_estimate in the cursor''s query', r.q_cms),
			(check_name, '@> on the fetched filter, in a PL/pgSQL expression', hit),
			(check_name, '@> on the fetched filter, in an SQL statement', r.f @> r.v),
			(check_name, '@> on the fetched fit filter, in a PL/pgSQL expression', fit_hit),
			(check_name, '@> on the fetched fit filter, in an SQL statement', r.fit @> r.v);
	END LOOP;
END $$;

-- BEFORE INSERT trigger: checks NEW.v against a stored filter and a stored
-- sketch (TG_ARGV: check name, filter table, filter name, sketch name) and
-- records the answers.
CREATE FUNCTION nfn_probe_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_ARGV[1] = 'stored' THEN
		INSERT INTO nfn_tally SELECT TG_ARGV[0], TG_ARGV[1] || ' ' || TG_ARGV[2] || ': ' || x.what, x.hit FROM stored s,
			LATERAL (VALUES ('bloom_contains', bloom_contains(s.f, NEW.v)), ('@>', s.f @> NEW.v), ('<@', NEW.v <@ s.f)) x(what, hit)
		WHERE s.name = TG_ARGV[2];
	ELSE
		INSERT INTO nfn_tally SELECT TG_ARGV[0], TG_ARGV[1] || ' ' || TG_ARGV[2] || ': ' || x.what, x.hit FROM stored_ext s,
			LATERAL (VALUES ('bloom_contains', bloom_contains(s.f, NEW.v)), ('@>', s.f @> NEW.v), ('<@', NEW.v <@ s.f)) x(what, hit)
		WHERE s.name = TG_ARGV[2];
	END IF;
	INSERT INTO nfn_tally SELECT TG_ARGV[0], 'cms_estimate', cms_estimate(c.s, NEW.v) >= NEW.cnt
		FROM stored_cms c WHERE c.name = TG_ARGV[3];
	RETURN NEW;
END $$;
CREATE TABLE trg_text (v text, cnt int);
CREATE TABLE trg_int (v int8, cnt int);
