-- A summary's bytes are a function of the values alone (docs/topk.md,
-- "Texts"): the same topk_agg under any TimeZone, DateStyle, IntervalStyle,
-- extra_float_digits and bytea_output gives identical bytes, topk_items shows
-- the values the way the reading session prints them where the key
-- determines the text, and whether a stored summary is valid does not depend
-- on the database that reads it.
\set regress_db :DBNAME
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomsketch;
RESET client_min_messages;

CREATE TABLE topk_settings_values AS
SELECT timestamptz '2024-03-01 12:00:00.25+00' + (i % 7) * interval '1 hour 0.5 second' AS ts,
       date '2024-02-27' + i % 5 AS d,
       (i % 6) / 3.0::float8 AS f,
       round((i % 4) / 4.0, 2 + i % 3) AS n,
       CASE i % 3 WHEN 0 THEN interval '1 day' WHEN 1 THEN interval '24 hours'
                  ELSE interval '1 mon 2 hours 0.5 seconds' END AS iv,
       jsonb_build_object('n', round(i % 3 / 2.0, 1 + i % 2), 'w', 'w' || i % 4) AS j,
       timestamp '2024-03-01 00:00:00' + (i % 3) * interval '36 hours' AS t,
       ARRAY[timestamptz '2024-03-01 12:00+00' + (i % 2) * interval '1 day'] AS tsa,
       decode(repeat(to_hex(i % 3 + 10), 4), 'hex') AS b
FROM generate_series(1, 300) i;

-- Every column summarized under every combination of the settings that
-- change how values print.
CREATE TABLE topk_runs (settings text, col text, s bytea);
DO $$
DECLARE
	tz text;
	ds text;
	ist text;
	efd text;
BEGIN
	FOREACH tz IN ARRAY ARRAY['UTC', 'Asia/Tokyo', 'America/St_Johns'] LOOP
	FOREACH ds IN ARRAY ARRAY['ISO, MDY', 'German, DMY', 'SQL, DMY', 'Postgres, YMD'] LOOP
	FOREACH ist IN ARRAY ARRAY['postgres', 'iso_8601', 'sql_standard', 'postgres_verbose'] LOOP
	FOREACH efd IN ARRAY ARRAY['0', '3', '-15'] LOOP
		PERFORM set_config('TimeZone', tz, true), set_config('DateStyle', ds, true),
				set_config('IntervalStyle', ist, true), set_config('extra_float_digits', efd, true),
				set_config('bytea_output', CASE efd WHEN '0' THEN 'escape' ELSE 'hex' END, true);
		INSERT INTO topk_runs
		SELECT concat_ws(' / ', tz, ds, ist, efd), c.col, c.s
		FROM (SELECT topk_agg(ts, 20)::bytea AS ts, topk_agg(d, 20)::bytea AS d,
					 topk_agg(f, 20)::bytea AS f, topk_agg(n, 20)::bytea AS n,
					 topk_agg(iv, 20)::bytea AS iv, topk_agg(j, 20)::bytea AS j,
					 topk_agg(t, 20)::bytea AS t, topk_agg(tsa, 20)::bytea AS tsa,
					 topk_agg(b, 20)::bytea AS b
			  FROM topk_settings_values) a,
			 LATERAL (VALUES ('timestamptz', a.ts), ('date', a.d), ('float8', a.f),
							 ('numeric', a.n), ('interval', a.iv), ('jsonb', a.j),
							 ('timestamp', a.t), ('timestamptz[]', a.tsa),
							 ('bytea', a.b)) c(col, s);
	END LOOP;
	END LOOP;
	END LOOP;
	END LOOP;
END
$$;
SELECT col, count(*) AS runs, count(DISTINCT s) AS distinct_bytes
FROM topk_runs GROUP BY col ORDER BY col;

-- topk_items prints what the key determines under the reading session's
-- settings, as the column's own output would ...
SET TimeZone = 'Asia/Tokyo';
SET DateStyle = 'German, DMY';
SET extra_float_digits = 0;
SET bytea_output = 'escape';
SELECT value, count FROM topk_items((SELECT topk_agg(ts, 10) FROM topk_settings_values)) ORDER BY value;
SELECT value, count FROM topk_items((SELECT topk_agg(d, 10) FROM topk_settings_values)) ORDER BY value;
SELECT value, count FROM topk_items((SELECT topk_agg(f, 10) FROM topk_settings_values)) ORDER BY value;
SELECT value, count FROM topk_items((SELECT topk_agg(t, 10) FROM topk_settings_values)) ORDER BY value;
SELECT value, count FROM topk_items((SELECT topk_agg(b, 10) FROM topk_settings_values)) ORDER BY value;
-- ... every listed value of those columns is a value of the column as the
-- session prints it ...
SELECT bool_and(EXISTS (SELECT FROM topk_settings_values v WHERE v.ts::text = i.value)) AS ts_as_printed,
       count(*) AS listed
FROM topk_items((SELECT topk_agg(ts, 10) FROM topk_settings_values)) i;
SELECT bool_and(EXISTS (SELECT FROM topk_settings_values v WHERE v.f::text = i.value)) AS f_as_printed,
       count(*) AS listed
FROM topk_items((SELECT topk_agg(f, 10) FROM topk_settings_values)) i;
SET extra_float_digits = 3;
SELECT bool_and(EXISTS (SELECT FROM topk_settings_values v WHERE v.f::text = i.value)) AS f_as_printed,
       count(*) AS listed
FROM topk_items((SELECT topk_agg(f, 10) FROM topk_settings_values)) i;
-- ... and what shares a key with other spellings (numeric, interval) or is of
-- family other carries a text rendered under fixed settings (ISO dates, UTC,
-- IntervalStyle postgres, shortest exact floats, hex bytea).
SET IntervalStyle = 'iso_8601';
SELECT value, count FROM topk_items((SELECT topk_agg(n, 10) FROM topk_settings_values)) ORDER BY value;
SELECT value, count FROM topk_items((SELECT topk_agg(iv, 10) FROM topk_settings_values)) ORDER BY value;
SELECT value, count FROM topk_items((SELECT topk_agg(tsa, 10) FROM topk_settings_values)) ORDER BY value;
SELECT value, count FROM topk_items((SELECT topk_agg(j, 20) FROM topk_settings_values)) ORDER BY value;
RESET TimeZone;
RESET DateStyle;
RESET extra_float_digits;
RESET bytea_output;
RESET IntervalStyle;

-- Parallel workers write their partial summaries without the session's
-- settings too: over few values (nothing reduced) a parallel plan gives the
-- serial plan's bytes, under Tokyo time and German dates.  (Family other
-- has no combine function: its texts are written by the leader.)
CREATE FUNCTION topk_settings_partial(query text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (COSTS OFF, FORMAT JSON) ' || query INTO plan;
	RETURN plan::text LIKE '%"Partial Mode": "Partial"%';
END $$;
SET TimeZone = 'Asia/Tokyo';
SET DateStyle = 'German, DMY';
CREATE TABLE topk_settings_serial AS SELECT topk_agg(ts, 20) AS ts FROM topk_settings_values;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
\set q 'SELECT topk_agg(ts, 20) AS ts FROM topk_settings_values'
SELECT topk_settings_partial(:'q') AS partial_aggregate;
SELECT p.ts = s.ts AS parallel_bytes_as_serial, (SELECT count(*) FROM topk_items(p.ts)) AS items
FROM (:q) p, topk_settings_serial s;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
RESET TimeZone;
RESET DateStyle;
DROP TABLE topk_settings_serial;
DROP FUNCTION topk_settings_partial(text);

-- topk_items depends on the session's settings, so it is not immutable; what
-- writes or reads bytes only is.
SELECT p.proname, p.provolatile
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
JOIN pg_extension e ON d.refobjid = e.oid AND e.extname = 'bloomsketch'
WHERE p.proname LIKE 'topk%' AND p.prokind = 'f'
GROUP BY p.proname, p.provolatile ORDER BY p.proname;

-- Where the key determines the text, entries have no text field: an integer
-- entry (key 1) followed by the text "0", or a text entry by "AA", leaves
-- bytes over.
SELECT ('topk:v1:integer:counters=3:entries=1:total=1:error=0:bytes=12:' ||
        encode('\x01 00 08 0100000000000000 30'::bytea, 'base64'))::topksketch;
SELECT ('topk:v1:text:counters=3:entries=1:total=1:error=0:bytes=6:' ||
        encode('\x01 00 01 61 4141'::bytea, 'base64'))::topksketch;
-- A numeric entry's text must be a spelling of its key: "1.00" for key 1 is
-- accepted, "2" is not (lower 1, lower - count 0, key length 1, text length
-- + 1, key, text).
SELECT t.* FROM topk_items(('topk:v1:numeric:counters=3:entries=1:total=1:error=0:bytes=9:' ||
        encode('\x01 00 01 05 31 312e3030'::bytea, 'base64'))::topksketch) t;
SELECT ('topk:v1:numeric:counters=3:entries=1:total=1:error=0:bytes=6:' ||
        encode('\x01 00 01 02 31 32'::bytea, 'base64'))::topksketch;
-- A text key must be UTF-8 in every database.
SELECT ('topk:v1:text:counters=3:entries=1:total=1:error=0:bytes=4:' ||
        encode('\x01 00 01 ff'::bytea, 'base64'))::topksketch;

-- Validity does not depend on the database's encoding: in a SQL_ASCII
-- database a text of family other that is not UTF-8 is refused as in a UTF-8
-- one, and topk_agg refuses to count text that is not UTF-8 (bloom_agg and
-- cms_agg hash such bytes as they are).
\set other_not_utf8 'topk:v1:other-4daaea92:counters=3:entries=1:total=1:error=0:bytes=10:AQAFAkEAAAAA/w=='
SELECT :'other_not_utf8'::topksketch;
CREATE DATABASE bs_topk_sql_ascii ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c bs_topk_sql_ascii
SET client_min_messages = warning;
CREATE EXTENSION bloomsketch;
RESET client_min_messages;
SELECT :'other_not_utf8'::topksketch;
SELECT topk_agg(convert_from(x, 'SQL_ASCII'), 3) FROM (VALUES ('\xff'::bytea)) v(x);
SELECT topk_agg(ARRAY[convert_from(x, 'SQL_ASCII')], 3) FROM (VALUES ('\xfe'::bytea)) v(x);
SELECT value, count FROM topk_items((SELECT topk_agg(x, 3) FROM (VALUES ('a'::text), (E'caf\xc3\xa9'), ('a')) v(x)))
ORDER BY value;
SELECT encode(convert_to(value, 'SQL_ASCII'), 'hex') AS utf8_bytes
FROM topk_items((SELECT topk_agg(E'caf\xc3\xa9'::text, 3)));
\c :regress_db
DROP DATABASE bs_topk_sql_ascii;
DROP TABLE topk_runs;
DROP TABLE topk_settings_values;
