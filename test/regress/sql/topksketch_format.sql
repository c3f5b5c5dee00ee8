-- Stored heavy-hitters summaries stay readable (docs/format.md, "Format
-- versions"): test/data/topksketch_v1.tsv holds summaries written in topksketch
-- format version 1, one per line, in text form, with what they answered
-- then: the md5 of their serialized bytes (::bytea), their topk_info fields
-- and their listed values with counts and bounds.  Reading them must give the
-- identical text and bytes back, the same fields and the same values.
-- Version 1 is new in 0.2.0, which is not released: until it is, the format
-- may still change and this file is regenerated with it (docs/format.md
-- section 8).  Once 0.2.0 is released, a later format version must keep
-- this test passing, reading these lines as they are; never regenerate the
-- file then.
--
-- The file is generated, from the repository root, against a database with
-- the extension, by this script, run as psql -X -q -v ON_ERROR_STOP=1 -f
-- script > test/data/topksketch_v1.tsv (columns: what, summary, bytes_md5,
-- counters, entries, total, max_error, family, bytes, items; the items as
-- topk_items prints them under the settings the script sets):
--
--   SET datestyle = 'ISO, MDY';
--   SET timezone = 'UTC';
--   COPY (
--     WITH v(what, s) AS (VALUES
--       ('integer: 1 2 1 3 1 4 2 with 3 counters',
--        (SELECT topk_agg(x, 3) FROM unnest('{1,2,1,3,1,4,2}'::int[]) x)),
--       ('integer: least(i mod 17, i mod 23, i mod 31) for i = 1..1000, 10 counters',
--        (SELECT topk_agg(least(i % 17, i % 23, i % 31), 10) FROM generate_series(1, 1000) i)),
--       ('integer: 1..40 once each, 3 counters',
--        (SELECT topk_agg(i, 3 ORDER BY i) FROM generate_series(1, 40) i)),
--       ('integer: (i * i) % 11 for i = 1..300, 2 counters',
--        (SELECT topk_agg((i * i) % 11, 2 ORDER BY i) FROM generate_series(1, 300) i)),
--       ('integer: 3 1 7 1 1 6 2 2 2 2 2 2 3 3 4 8 3 8 3 4 4, 1 counter (a bisection)',
--        (SELECT topk_agg(x, 1 ORDER BY o)
--         FROM unnest('{3,1,7,1,1,6,2,2,2,2,2,2,3,3,4,8,3,8,3,4,4}'::int[]) WITH ORDINALITY u(x, o))),
--       ('integer: ties listed by key bytes, 2 -1 256 1 with 4 counters',
--        (SELECT topk_agg(x, 4) FROM unnest('{2,-1,256,1}'::int[]) x)),
--       ('text: café x3, a x2, empty x1, b and c, 4 counters',
--        (SELECT topk_agg(w, 4) FROM unnest('{café,a,café,b,"",café,c,a}'::text[]) w)),
--       ('numeric: 1.0 x2 and 1.00, 2.50, 3 counters',
--        (SELECT topk_agg(x, 3) FROM unnest('{1.0,1.00,2.50,1.0}'::numeric[]) x)),
--       ('bpchar: char(4) is rendered from its key, without padding',
--        (SELECT topk_agg(x, 2) FROM unnest(ARRAY['ab'::char(4), 'ab', 'c']) x)),
--       ('date: rendered from the key, epsilon 0.25',
--        (SELECT topk_agg(d, 1, 0.25) FROM unnest('{2024-03-01,2024-03-01,2024-02-29}'::date[]) d)),
--       ('timestamptz: rendered from the key',
--        (SELECT topk_agg(t, 3) FROM unnest('{2024-03-01 12:00+09,2024-03-01 03:00Z,2000-01-01 00:00:00.5Z}'::timestamptz[]) t)),
--       ('other: int4[] arrays, 2 counters',
--        (SELECT topk_agg(a, 2) FROM (VALUES (ARRAY[1, 2]), (ARRAY[1, 2]), (ARRAY[3])) t(a))),
--       ('other: interval, text under IntervalStyle postgres',
--        (SELECT topk_agg(x, 3) FROM unnest('{24 hours,1 day,1 mon}'::interval[]) x)),
--       ('empty: no family, 7 counters',
--        'topk:v1:none:counters=7:entries=0:total=0:error=0:bytes=0:'::topksketch)
--     )
--     SELECT what, s::text AS summary, md5(s::bytea) AS bytes_md5, i.counters, i.entries, i.total,
--            i.max_error, i.family, i.bytes,
--            (SELECT string_agg(format('%s:%s:%s:%s', value, count, lower_bound, upper_bound), ' ')
--             FROM topk_items(s)) AS items
--     FROM v, LATERAL topk_info(s) i
--     ORDER BY what) TO STDOUT;
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomsketch;
RESET client_min_messages;

-- The same lines read twice: as summaries (topksketch text input) and as text.
CREATE TABLE topk_v1 (what text, s topksketch, bytes_md5 text, counters integer, entries integer,
	total bigint, max_error bigint, family text, bytes bigint, items text);
\copy topk_v1 FROM 'test/data/topksketch_v1.tsv'
CREATE TABLE topk_v1_text (what text, t text, bytes_md5 text, counters integer, entries integer,
	total bigint, max_error bigint, family text, bytes bigint, items text);
\copy topk_v1_text FROM 'test/data/topksketch_v1.tsv'
SELECT count(*) AS summaries FROM topk_v1;

-- What each summary decodes to, and whether it is the value that was
-- written: the same text, the same serialized bytes, the same value after a
-- trip through bytea, the topk_info fields and the listed values of the file
-- (read under the settings they were written under).
SET datestyle = 'ISO, MDY';
SET timezone = 'UTC';
SELECT c.what, i.format_version, i.family, i.counters, i.entries, i.total, i.max_error,
       c.s::text = t.t AS identical_text,
       md5(c.s::bytea) = c.bytes_md5 AS identical_bytes,
       (c.s::bytea)::topksketch = c.s AND ((c.s::bytea)::topksketch)::text = t.t AS bytea_round_trip,
       (i.counters, i.entries, i.total, i.max_error, i.family, i.bytes)
         = (c.counters, c.entries, c.total, c.max_error, c.family, c.bytes) AS info_as_written,
       (SELECT string_agg(format('%s:%s:%s:%s', value, count, lower_bound, upper_bound), ' ')
        FROM topk_items(c.s)) IS NOT DISTINCT FROM c.items AS items_as_written
FROM topk_v1 c JOIN topk_v1_text t USING (what), LATERAL topk_info(c.s) i
ORDER BY c.what;
RESET datestyle;
RESET timezone;

-- Summaries built now merge with them: the integer one with the same stream
-- counted again has twice the total, and value 1 listed with twice its count.
SELECT topk_total(s + s2) AS merged_total, t.value, t.count
FROM topk_v1, LATERAL (SELECT topk_agg(x, 3) AS s2 FROM unnest('{1,2,1,3,1,4,2}'::int[]) x) n,
     LATERAL topk_items(s + s2) t
WHERE what LIKE 'integer: 1 2 1%' ORDER BY t.count DESC, t.value;
SELECT t.* FROM topk_v1, LATERAL topk_items(s + (SELECT topk_agg('café'::text, 4))) t
WHERE what LIKE 'text:%';

-- A value of a newer format version is refused rather than misread, in text
-- (22P02) and in binary (22P03).
\set VERBOSITY sqlstate
SELECT replace(t, 'topk:v1:', 'topk:v2:')::topksketch FROM topk_v1_text WHERE what LIKE 'date:%';
SELECT overlay(t::topksketch::bytea PLACING '\x02'::bytea FROM 1)::topksketch FROM topk_v1_text WHERE what LIKE 'date:%';
\set VERBOSITY default

DROP TABLE topk_v1, topk_v1_text;
