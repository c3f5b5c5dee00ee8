-- topksketch: building, the listed values and their bounds, text, binary and
-- bytea forms, malformed input, value families and texts, merging, NULLs,
-- errors with their SQLSTATEs, equality, and use as a window aggregate.
-- (quietly: the extension exists when the whole suite runs, not when this test runs alone)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomsketch;
RESET client_min_messages;
SET max_parallel_workers_per_gather = 0;

-- Runs a statement and reports its SQLSTATE and message, or 'ok'.
CREATE FUNCTION topk_try(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE query;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- ---- a small summary, worked by hand ----
-- 1 2 1 3 1 4 2 with 3 counters: four values fit in the 3c = 9 slots, and
-- writing the summary out reduces it to 3: 1 and 2 stay for their lower
-- bounds, 3 and 4 tie (lower 1, count 1) and the salt of N = 7 keeps 3
-- (docs/format.md section 9); the count dropped, 1, is subtracted from
-- every counter, and the error is 1.  The counts kept are the occurrences
-- counted (1: 3, 2: 2, 3: 1); upper bounds are the counters (2, 1, 0) plus
-- the error.
CREATE TABLE topk_small AS
SELECT topk_agg(x, 3) AS s FROM (VALUES (1), (2), (1), (3), (1), (4), (2)) v(x);
SELECT s FROM topk_small;
SELECT t.* FROM topk_small, topk_items(s) t;
SELECT i.* FROM topk_small, topk_info(s) i;
SELECT topk_total(s) FROM topk_small;
-- more counters than values: every count exact, nothing dropped
SELECT t.* FROM topk_items((SELECT topk_agg(x, 10) FROM (VALUES (1), (2), (1), (3), (1), (4), (2)) v(x))) t;
-- one counter: the majority vote (Boyer and Moore)
SELECT t.value FROM topk_items((SELECT topk_agg(x, 1) FROM unnest('{5,1,5,2,5,3,5}'::int[]) x)) t;
-- best first: by count (lower bound), then upper bound, then key bytes
SELECT t.value, t.count FROM topk_items((SELECT topk_agg(x, 5)
	FROM unnest('{b,a,c,a,b,d,d,d}'::text[]) x)) t;

-- ---- sizing ----
-- topk_agg(value, k) keeps k counters; topk_agg(value, k, epsilon) at least
-- k and enough that N/(c+1) <= epsilon N: c = max(k, ceil(1/epsilon) - 1)
SELECT (topk_info(topk_agg(1, 1))).counters AS k_1, (topk_info(topk_agg(1, 100))).counters AS k_100,
       (topk_info(topk_agg(1, 10, 0.01))).counters AS k_10_eps_001,
       (topk_info(topk_agg(1, 500, 0.01))).counters AS k_500_eps_001,
       (topk_info(topk_agg(1, 1, 0.5))).counters AS k_1_eps_05,
       (topk_info(topk_agg(1, 1, 0.3))).counters AS k_1_eps_03;
SELECT q, topk_try(q) FROM (VALUES
	('SELECT topk_agg(1, 0)'),
	('SELECT topk_agg(1, -3)'),
	('SELECT topk_agg(1, 1000001)'),
	('SELECT topk_agg(1, 10, 0)'),
	('SELECT topk_agg(1, 10, 1)'),
	('SELECT topk_agg(1, 10, ''NaN'')'),
	('SELECT topk_agg(1, 10, 1e-7)'),
	('SELECT topk_agg(1, NULL)'),
	('SELECT topk_agg(1, 10, NULL)'),
	('SELECT topk_agg(x, x) FROM generate_series(1, 3) x')) t(q);
-- every refusal of a parameter is short and says what to do: no 300-digit
-- count of counters for a tiny epsilon, no "inf" for one below 1e-308
CREATE FUNCTION topk_explain(query text, OUT state text, OUT message text, OUT detail text,
	OUT hint text) LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE query;
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
		detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
END $$;
CREATE TABLE topk_messages AS
SELECT q, (topk_explain(q)).* FROM (VALUES
	('SELECT topk_agg(1, 10, 1e-300)'),
	('SELECT topk_agg(1, 10, 1e-320)'),
	('SELECT topk_agg(1, 10, 1e-7)'),
	('SELECT topk_agg(1, 10, 0)'),
	('SELECT topk_agg(1, 10, ''NaN'')'),
	('SELECT topk_agg(1, 0)'),
	('SELECT topk_agg(1, 2000000000)'),
	('SELECT topk_agg(1, NULL)'),
	('SELECT topk_agg(x, x) FROM generate_series(1, 3) x'),
	('SELECT topk_agg(1, 4) + topk_agg(1, 5)')) t(q);
SELECT q, state, message, detail, hint FROM topk_messages;
SELECT count(*) AS refusals, max(length(detail)) AS longest_detail,
       count(*) FILTER (WHERE hint IS NULL OR hint = '') AS without_hint
FROM topk_messages;
DROP TABLE topk_messages;
DROP FUNCTION topk_explain(text);

-- ---- NULLs ----
SELECT topk_agg(x, 5) IS NULL AS no_rows FROM (SELECT 1 WHERE false) v(x);
SELECT topk_agg(x, 5) IS NULL AS only_nulls FROM (VALUES (NULL::int), (NULL)) v(x);
SELECT topk_total(topk_agg(x, 5)) AS nulls_skipped FROM (VALUES (1), (NULL), (2), (NULL)) v(x);
SELECT topk_merge_agg(s) IS NULL AS merge_of_nothing FROM (SELECT NULL::topksketch) v(s);
SELECT (SELECT count(*) FROM topk_items(NULL)) = 0 AS strict_items,
       topk_total(NULL) IS NULL AS strict_total, topk_merge(NULL, NULL) IS NULL AS strict_merge;

-- ---- text, binary and bytea forms ----
SELECT s::text::topksketch::text = s::text AS text_identity,
       s::bytea::topksketch = s AS bytea_round_trip,
       length(s::bytea) AS serialized_bytes,
       s::bytea::topksketch::text = s::text AS bytea_text_identity
FROM topk_small;
SELECT encode(s::bytea, 'hex') FROM topk_small;
CREATE TABLE topk_io_src (g int, s topksketch);
INSERT INTO topk_io_src
SELECT g, topk_agg(w, 4) FROM (VALUES (1, 'é'), (1, 'a'), (1, 'é'), (2, 'xyz'), (2, 'xyz')) v(g, w) GROUP BY g;
CREATE TABLE topk_io_dst (LIKE topk_io_src);
\copy topk_io_src TO 'results/topksketch_io.bin' (FORMAT binary)
\copy topk_io_dst FROM 'results/topksketch_io.bin' (FORMAT binary)
SELECT count(*) AS binary_copy_identical FROM topk_io_src a JOIN topk_io_dst b USING (g) WHERE a.s::bytea = b.s::bytea;
\copy (SELECT 1, substring(s::bytea FROM 1 FOR 40) FROM topk_io_src WHERE g = 1) TO 'results/topksketch_io_bad.bin' (FORMAT binary)
\copy topk_io_dst FROM 'results/topksketch_io_bad.bin' (FORMAT binary)
-- an empty summary: merging nothing into one
SELECT 'topk:v1:none:counters=7:entries=0:total=0:error=0:bytes=0:'::topksketch AS empty,
       topk_total('topk:v1:none:counters=7:entries=0:total=0:error=0:bytes=0:') AS empty_total;

-- ---- malformed input ----
-- Little-endian field writers for building bad headers and entries.
CREATE FUNCTION topk_put_le(b bytea, offset_ int, width int, v numeric) RETURNS bytea LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN 0 .. width - 1 LOOP
		b := set_byte(b, offset_ + i, (v % 256)::int);
		v := div(v, 256);
	END LOOP;
	RETURN b;
END $$;
-- The small summary's bytes: header (40 bytes), then three entries of 11
-- bytes (family integer: no text field): lower, lower - count and key length
-- as one-byte numbers, then the 8-byte key; key 1 (lower 3, count 2) at 40,
-- key 2 (2, 1) at 51, key 4 (1, 0) at 62.
SELECT q, topk_try(q) FROM (VALUES
	('SELECT ''topk:v1:integer:counters=3:entries=2''::topksketch'),
	('SELECT ''topq:v1:none:counters=7:entries=0:total=0:error=0:bytes=0:''::topksketch'),
	('SELECT ''topk:v2:none:counters=7:entries=0:total=0:error=0:bytes=0:''::topksketch'),
	('SELECT ''topk:v1:none:counters=07:entries=0:total=0:error=0:bytes=0:''::topksketch'),
	('SELECT ''topk:v1:none:counters=0:entries=0:total=0:error=0:bytes=0:''::topksketch'),
	('SELECT ''topk:v1:none:counters=1000001:entries=0:total=0:error=0:bytes=0:''::topksketch'),
	('SELECT ''topk:v1:none:counters=7:entries=0:total=1:error=0:bytes=0:''::topksketch'),
	('SELECT ''topk:v1:integer:counters=7:entries=0:total=1:error=2:bytes=0:''::topksketch'),
	('SELECT ''topk:v1:integer:counters=7:entries=0:total=9223372036854775808:error=0:bytes=0:''::topksketch'),
	('SELECT ''topk:v1:integer:counters=7:entries=0:total=10:error=0:bytes=3:AAAA''::topksketch'),
	('SELECT ''topk:v1:integer:counters=7:entries=0:total=10:error=0:bytes=800000000:''::topksketch'),
	('SELECT ''topk:v1:integer:counters=1:entries=1:total=10:error=5:bytes=11:AQAIAAAAAAAAAAA=''::topksketch'),
	('SELECT ''topk:v1:integer:counters=1:entries=1:total=11:error=5:bytes=11:AQAIAAAAAAAAAAA=''::topksketch')) t(q);
SELECT label, topk_try(format('SELECT %L::bytea::topksketch', b)) AS outcome
FROM topk_small, LATERAL (VALUES
	('truncated header', substring(s::bytea FROM 1 FOR 39)),
	('truncated entries', substring(s::bytea FROM 1 FOR 60)),
	('trailing byte', s::bytea || '\x00'::bytea),
	('version 0', set_byte(s::bytea, 0, 0)),
	('family 12', set_byte(s::bytea, 1, 12)),
	('reserved field', set_byte(s::bytea, 2, 1)),
	('type tag without family other', set_byte(s::bytea, 4, 1)),
	('more entries than counters', topk_put_le(s::bytea, 12, 4, 4)),
	('lower 0', set_byte(set_byte(s::bytea, 62, 0), 63, 0)),
	('count below 0', set_byte(s::bytea, 41, 4)),
	('lower above count plus error', set_byte(s::bytea, 41, 2)),
	('a number in a superfluous byte', topk_put_le(s::bytea, 62, 2, 129)),
	('error past its bound', topk_put_le(s::bytea, 24, 8, 2)),
	('key of 7 bytes', set_byte(s::bytea, 42, 7)),
	('entries out of order', set_byte(s::bytea, 54, 0)),
	('a payload beyond the largest', topk_put_le(s::bytea, 32, 8, 800000000))) v(label, b);
-- text input runs the same checks: texts (of family other here) that are not
-- UTF-8 or hold a NUL, and text keys that are not UTF-8
SELECT topk_try(format('SELECT %L::topksketch',
	'topk:v1:other-4daaea92:counters=1:entries=1:total=1:error=0:bytes=7:' ||
	encode('\x0100010341fffe'::bytea, 'base64')))
	AS text_not_utf8;
SELECT topk_try(format('SELECT %L::topksketch',
	'topk:v1:other-4daaea92:counters=1:entries=1:total=1:error=0:bytes=7:' ||
	encode('\x0100010341 0041'::bytea, 'base64')))
	AS text_with_nul;
SELECT topk_try(format('SELECT %L::topksketch',
	'topk:v1:text:counters=1:entries=1:total=1:error=0:bytes=5:' ||
	encode('\x01000241ff'::bytea, 'base64')))
	AS key_text_not_utf8;

-- ---- value families and texts ----
-- 1::int2, 1::int4 and 1::int8 are one value, and '1' its text whatever the type
SELECT t.* FROM topk_items(
	(SELECT topk_agg(x::int2, 4) FROM generate_series(1, 3) x) +
	(SELECT topk_agg(x::int4, 4) FROM generate_series(1, 2) x) +
	(SELECT topk_agg(x::int8, 4) FROM generate_series(1, 1) x)) t;
-- numerics that compare equal are one value; it keeps the text it was first counted with
SELECT t.* FROM topk_items((SELECT topk_agg(x, 4) FROM unnest('{1.0,1.00,1,2.50,2.5}'::numeric[]) x)) t;
-- ... and a merge keeps the smaller of two texts, so a + b = b + a
SELECT t.* FROM topk_items((SELECT topk_agg(1.00::numeric, 4)) + (SELECT topk_agg(1.0::numeric, 4))) t;
SELECT (SELECT topk_agg(1.00::numeric, 4)) + (SELECT topk_agg(1.0::numeric, 4))
     = (SELECT topk_agg(1.0::numeric, 4)) + (SELECT topk_agg(1.00::numeric, 4)) AS merge_commutes;
-- char(n) equality ignores trailing blanks, and so does its text, rendered
-- from the key as char(n)::text renders it
SELECT t.value, length(t.value), t.count FROM topk_items((SELECT topk_agg(x, 4)
	FROM unnest(ARRAY['ab'::char(4), 'ab'::char(4), 'c'::char(4)]) x)) t;
-- text is rendered from the key, its UTF-8 bytes
SELECT quote_literal(t.value) AS value, t.count
FROM topk_items((SELECT topk_agg(x, 4) FROM unnest('{é,e,é,"",""," "}'::text[]) x)) t;
SELECT t.value, t.count FROM topk_items((SELECT topk_agg(x, 4) FROM unnest('{é,e,é}'::varchar[]) x)) t;
-- the other families rendered from the key: their type's output function,
-- under the reading session's settings (docs/topk.md has the table)
SELECT t.* FROM topk_items((SELECT topk_agg(x, 4)
	FROM unnest('{2024-03-01,2024-03-01,2024-03-02}'::date[]) x)) t;
SELECT t.* FROM topk_items((SELECT topk_agg(x, 4) FROM unnest('{t,f,t}'::boolean[]) x)) t;
SELECT t.* FROM topk_items((SELECT topk_agg(x, 4) FROM unnest('{0,-0,NaN,Infinity}'::float8[]) x)) t;
SELECT t.* FROM topk_items((SELECT topk_agg(x, 4)
	FROM unnest('{"\\x00","\\x00ff",""}'::bytea[]) x)) t;
SELECT t.* FROM topk_items((SELECT topk_agg(x, 4)
	FROM unnest('{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}'::uuid[]) x)) t;
-- family other: arrays (int4[] and int8[] alike), ranges, composites, jsonb,
-- intervals, with the text written under fixed settings (IntervalStyle
-- postgres, not the suite's postgres_verbose)
SELECT t.* FROM topk_items((SELECT topk_agg(x, 4) FROM (VALUES (ARRAY[1, 2]), (ARRAY[1, 2]), (ARRAY[2])) v(x))) t;
SELECT (SELECT topk_agg(ARRAY[1, 2]::int4[], 4)) + (SELECT topk_agg(ARRAY[1, 2]::int8[], 4)) IS NOT NULL AS arrays_merge;
SELECT t.* FROM topk_items((SELECT topk_agg(x, 4) FROM unnest('{"[1,3)","[1,2]","empty"}'::int4range[]) x)) t;
SELECT t.* FROM topk_items((SELECT topk_agg(x, 4)
	FROM unnest('{"{\"a\": 1, \"b\": 2}","{\"b\": 2, \"a\": 1}"}'::jsonb[]) x)) t;
SELECT t.* FROM topk_items((SELECT topk_agg(x, 4) FROM unnest('{1 day,24 hours,1 mon}'::interval[]) x)) t;
SELECT t.* FROM topk_items((SELECT topk_agg(x, 4) FROM (VALUES (ROW(1, 'a'::text)), (ROW(1::int8, 'a'::text))) v(x))) t;
-- refused types, as for the other types
CREATE TYPE topk_mood AS ENUM ('sad', 'ok');
SELECT topk_try('SELECT topk_agg(''ok''::topk_mood, 4)') AS enum_refused;
-- an untyped literal counts as text
SELECT t.* FROM topk_items((SELECT topk_agg('x', 4))) t;

-- ---- merging ----
SELECT q, topk_try(q) FROM (VALUES
	('SELECT topk_agg(1, 4) + topk_agg(1, 5)'),
	('SELECT topk_agg(1, 4) + topk_agg(''1''::text, 4)'),
	('SELECT topk_agg(1, 4) + ''topk:v1:none:counters=4:entries=0:total=0:error=0:bytes=0:'''),
	('SELECT topk_merge(''topk:v1:integer:counters=4:entries=0:total=9223372036854775807:error=0:bytes=0:'', topk_agg(1, 4))'),
	('SELECT topk_merge_agg(s) FROM (SELECT topk_agg(1, 4) UNION ALL SELECT topk_agg(1, 5)) v(s)')) t(q);
-- the transition functions update in place, so only aggregates call them
SELECT topk_try('SELECT topk_agg_trans(NULL, 1::bigint, 4)') AS trans_outside_aggregate;
-- outside an aggregate, the merge transition is a plain merge
SELECT topk_merge_trans(s, s) = s + s AS merge_trans_outside_aggregate FROM topk_small;
-- a merge with an empty summary changes nothing but the family
SELECT s + 'topk:v1:none:counters=3:entries=0:total=0:error=0:bytes=0:' = s AS empty_is_neutral FROM topk_small;
-- topk_merge_agg over stored summaries, per group
CREATE TABLE topk_daily AS
SELECT d, topk_agg(u, 3) AS s
FROM (SELECT d, CASE WHEN i % 2 = 0 THEN 0 ELSE (d * 7 + i) % 11 END AS u
      FROM generate_series(1, 4) d, generate_series(1, 20) i) v
GROUP BY d;
SELECT t.* FROM topk_items((SELECT topk_merge_agg(s) FROM topk_daily)) t;
SELECT topk_total(topk_merge_agg(s)) AS merged_total FROM topk_daily;

-- ---- equality, GROUP BY, DISTINCT, hash join, btree index ----
SELECT count(DISTINCT s) AS distinct_summaries, count(*) AS rows
FROM (SELECT s FROM topk_daily UNION ALL SELECT s FROM topk_daily) v;
SET enable_sort = off;
SELECT count(*) AS hash_grouped FROM (SELECT s FROM topk_daily UNION ALL SELECT s FROM topk_daily) v GROUP BY s;
RESET enable_sort;
SET enable_mergejoin = off;
SET enable_nestloop = off;
SELECT count(*) AS hash_joined FROM topk_daily a JOIN topk_daily b ON a.s = b.s;
RESET enable_mergejoin;
RESET enable_nestloop;
CREATE INDEX topk_daily_s ON topk_daily (s);
SELECT a.d = b.d AS self_only FROM topk_daily a, topk_daily b WHERE a.s = b.s ORDER BY a.d;
SELECT bool_and((a.s < b.s) = (topksketch_cmp(a.s, b.s) < 0)) AS order_consistent,
       bool_and((a.s = b.s) = (a.d = b.d)) AS equality_consistent,
       bool_and(topksketch_hash(a.s) = topksketch_hash(a.s::text::topksketch)) AS hash_stable
FROM topk_daily a, topk_daily b;

-- ---- a window aggregate: the summary of the rows so far ----
-- (at row 3 the summary of 1 2 3 with 2 counters, written out, is reduced
-- by its 3rd largest counter, 1, to nothing; counting goes on from there)
SELECT i, x, (SELECT string_agg(value || ':' || count || '-' || upper_bound, ' ') FROM topk_items(s)) AS items
FROM (SELECT i, x, topk_agg(x, 2) OVER (ORDER BY i) AS s
      FROM unnest('{1,2,3,1,1,4,1}'::int[]) WITH ORDINALITY v(x, i)) v;

-- ---- every object has a comment ----
SELECT count(*) AS uncommented
FROM pg_depend d
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'bloomsketch')
  AND pg_describe_object(d.classid, d.objid, 0) ~ 'topk'
  AND obj_description(d.objid, (SELECT relname FROM pg_class WHERE oid = d.classid)) IS NULL
  AND NOT (d.classid = 'pg_type'::regclass AND EXISTS (SELECT 1 FROM pg_type t WHERE t.typarray = d.objid));
