-- Stored count-min sketches stay readable (docs/format.md, "Format versions"):
-- test/data/cmsketch_v1.tsv holds sketches written in cmsketch format version 1,
-- one per line, in text form, with what they answered when they were
-- written: the md5 of their serialized bytes (::bytea), their cms_info fields
-- and the estimates of a few probe values.  Reading them must give the
-- identical text and bytes back, the same parameters and the same estimates.
-- A later format version must keep this test passing, reading these lines
-- as they are; never regenerate the file to make it pass.
--
-- The file was generated once, from the repository root, against a database
-- with the extension, by this command (columns: what, sketch, bytes_md5,
-- width, depth, copies, epsilon, delta, seed, family, total, bytes,
-- probe_type, probes, estimates):
--
--   psql -X -q -v ON_ERROR_STOP=1 -c "COPY (
--     WITH v(what, s, probe_type, probes) AS (VALUES
--       ('integer: v added v times, v = 1..100 (epsilon = delta = 0.05)',
--        (SELECT cms_agg(v, 0.05, 0.05) FROM generate_series(1, 100) v, generate_series(1, v) r),
--        'bigint', '{1,2,50,100,101,0,-1,1000000}'::text[]),
--       ('text: weighted counts, 3 copies (epsilon = 0.05, delta = 0.001)',
--        (SELECT cms_agg(w, c, 0.05, 0.001) FROM (VALUES ('apple', 5000000000), ('banana', 3),
--           ('cherry', 1), ('', 2), ('durian', 4294967296)) t(w, c)),
--        'text', '{apple,banana,cherry,\"\",durian,elderberry,Apple}'),
--       ('uuid: w = 31, d = 3, seed = -7',
--        cms_add(cms_add(cms_create_dims(30, 3, -7), '6ba7b810-9dad-11d1-80b4-00c04fd430c8'::uuid),
--                '6ba7b811-9dad-11d1-80b4-00c04fd430c8'::uuid, 2),
--        'uuid', '{6ba7b810-9dad-11d1-80b4-00c04fd430c8,6ba7b811-9dad-11d1-80b4-00c04fd430c8,00000000-0000-0000-0000-000000000000}'),
--       ('inet (other): w = 37, d = 2',
--        cms_add(cms_add(cms_create_dims(37, 2), '10.0.0.1'::inet, 3), '::1'::inet, 9223372036854775804),
--        'inet', '{10.0.0.1,::1,10.0.0.2}'),
--       ('numeric: 1.0 once and 1.00 four times, w = 17, d = 2',
--        cms_add(cms_add(cms_create_dims(17, 2, 12345), 1.0::numeric), 1.00::numeric, 4),
--        'numeric', '{1,1.000,2,NaN}'),
--       ('intersection: of 1..50 and 26..100 counted twice, w = 13, d = 3, seed = 5',
--        cms_intersect(
--          (SELECT cms_merge_agg(cms_add(cms_create_dims(13, 3, 5), i)) FROM generate_series(1, 50) i),
--          (SELECT cms_merge_agg(cms_add(cms_create_dims(13, 3, 5), i, 2)) FROM generate_series(26, 100) i)),
--        'bigint', '{1,30,60,1000}'),
--       ('empty: w = 11, d = 1, largest seed',
--        cms_create_dims(11, 1, 9223372036854775807), 'bigint', '{0,1}'),
--       ('empty: 10 copies (epsilon = 0.5, delta = 0.001), seed = -1',
--        cms_create(0.5, 0.001, -1), 'text', '{a}')
--     )
--     SELECT what, s::text AS sketch, md5(s::bytea) AS bytes_md5, i.width, i.depth, i.copies,
--            i.epsilon, i.delta, i.seed, i.family, i.total, i.bytes, probe_type, probes,
--            (SELECT array_agg(CASE probe_type
--                      WHEN 'bigint' THEN cms_estimate(s, p::bigint)
--                      WHEN 'text' THEN cms_estimate(s, p)
--                      WHEN 'uuid' THEN cms_estimate(s, p::uuid)
--                      WHEN 'inet' THEN cms_estimate(s, p::inet)
--                      WHEN 'numeric' THEN cms_estimate(s, p::numeric) END ORDER BY o)
--             FROM unnest(probes) WITH ORDINALITY u(p, o)) AS estimates
--     FROM v, LATERAL cms_info(s) i
--     ORDER BY what) TO STDOUT" > test/data/cmsketch_v1.tsv
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomsketch;
RESET client_min_messages;

-- The same lines read twice: as sketches (cmsketch text input) and as text.
CREATE TABLE cms_v1 (what text, s cmsketch, bytes_md5 text, width integer, depth integer,
	copies integer, epsilon float8, delta float8, seed bigint, family text, total bigint,
	bytes bigint, probe_type text, probes text[], estimates bigint[]);
\copy cms_v1 FROM 'test/data/cmsketch_v1.tsv'
CREATE TABLE cms_v1_text (what text, t text, bytes_md5 text, width integer, depth integer,
	copies integer, epsilon float8, delta float8, seed bigint, family text, total bigint,
	bytes bigint, probe_type text, probes text[], estimates bigint[]);
\copy cms_v1_text FROM 'test/data/cmsketch_v1.tsv'
SELECT count(*) AS sketches FROM cms_v1;

-- What each sketch decodes to, and whether it is the value that was written:
-- the same text (text -> value -> text), the same serialized bytes, the same
-- value after a trip through bytea, and the cms_info fields of the file.
SELECT c.what, i.format_version, i.family, i.width, i.depth, i.copies, i.seed, i.total, i.bytes,
       c.s::text = t.t AS identical_text,
       md5(c.s::bytea) = c.bytes_md5 AS identical_bytes,
       (c.s::bytea)::cmsketch = c.s AND ((c.s::bytea)::cmsketch)::text = t.t AS bytea_round_trip,
       (i.width, i.depth, i.copies, i.seed, i.family, i.total, i.bytes)
         = (c.width, c.depth, c.copies, c.seed, c.family, c.total, c.bytes) AS info_as_written
FROM cms_v1 c JOIN cms_v1_text t USING (what), LATERAL cms_info(c.s) i
ORDER BY c.what;

-- epsilon and delta are computed from w, d and copies (exp and log of the C
-- library): the same to 12 significant digits.
SELECT what, round(i.epsilon::numeric, 6) AS epsilon, i.delta::numeric(12, 10) AS delta,
       abs(i.epsilon - c.epsilon) <= 1e-12 * c.epsilon AS epsilon_as_written,
       abs(i.delta - c.delta) <= 1e-12 * c.delta AS delta_as_written
FROM cms_v1 c, LATERAL cms_info(c.s) i
ORDER BY what;

-- The same estimates as when the sketches were written (never below the true
-- counts, which the "what" column describes), for every family whose hashing
-- format version 2 kept (family other is refused below).
SELECT what, p.probe, p.written, p.now, p.now = p.written AS same_estimate
FROM (SELECT * FROM cms_v1 WHERE probe_type <> 'inet') c,
     LATERAL (SELECT u.probe, estimates[u.o] AS written,
                     CASE probe_type
                       WHEN 'bigint' THEN cms_estimate(s, u.probe::bigint)
                       WHEN 'text' THEN cms_estimate(s, u.probe)
                       WHEN 'uuid' THEN cms_estimate(s, u.probe::uuid)
                       WHEN 'inet' THEN cms_estimate(s, u.probe::inet)
                       WHEN 'numeric' THEN cms_estimate(s, u.probe::numeric)
                     END AS now, u.o
              FROM unnest(probes) WITH ORDINALITY u(probe, o)) p
ORDER BY what, p.o;

-- Totals survive, and so does the inner product (here of the integer sketch
-- with itself: at least the sum of v^2 for v = 1..100, 338350).
SELECT what, cms_total(s) AS total, cms_total(s) = total AS same_total
FROM cms_v1 ORDER BY what;
SELECT cms_inner_product(s, s) >= 338350 AS product_at_least_true
FROM cms_v1 WHERE what LIKE 'integer:%';

-- Sketches built now with the same parameters still merge with them, and the
-- merge adds up counts and totals.
SELECT cms_total(s + (SELECT cms_agg(v, 0.05, 0.05) FROM generate_series(1, 10) v)) AS merged_total,
       cms_estimate(s + (SELECT cms_agg(v, 0.05, 0.05) FROM generate_series(1, 10) v), 50) AS estimate_50,
       cms_estimate(s + (SELECT cms_agg(v, 0.05, 0.05) FROM generate_series(1, 10) v), 2)
         - cms_estimate(s, 2) AS estimate_2_grew_by
FROM cms_v1 WHERE what LIKE 'integer:%';
-- Text is hashed as UTF-8 from format version 2 on, in the database encoding
-- before: the same bytes in a UTF-8 database, where a version 1 text sketch
-- answers as before and so merges with a version 2 one, the result taking
-- version 2 (docs/format.md, "Format versions"); probing a version 1 sketch
-- of family other (hashed through the binary send form) is refused.
SELECT cms_estimate(s, 'apple') AS apple FROM cms_v1 WHERE what LIKE 'text:%';
SELECT cms_estimate(cms_merge_agg(x), 'apple') AS apple, cms_total(cms_merge_agg(x)) AS total,
       (cms_info(cms_merge_agg(x))).format_version AS version
FROM (SELECT s FROM cms_v1 WHERE what LIKE 'text:%'
      UNION ALL SELECT cms_agg(w, 0.05, 0.001) FROM (VALUES ('apple'), ('fig')) t(w)) m(x);
SELECT cms_estimate(s + n, 'apple') AS apple, cms_estimate(n + s, 'fig') AS fig,
       (cms_info(s + n)).format_version AS merged_version,
       (cms_info(n + s)).format_version AS swapped_version,
       cms_intersect(s, n) = cms_intersect(n, s) AS intersection_symmetric,
       (cms_info(cms_intersect(s, n))).format_version AS intersection_version,
       cms_inner_product(s, n) = cms_inner_product(n, s) AS inner_product_symmetric
FROM cms_v1, (SELECT cms_agg(w, 0.05, 0.001) FROM (VALUES ('apple'), ('fig')) t(w)) b(n)
WHERE what LIKE 'text:%';
SELECT cms_estimate(s, '10.0.0.1'::inet) FROM cms_v1 WHERE what LIKE 'inet%';

-- A value of a newer format version is refused rather than misread, in text
-- (22P02) and in binary (22P03).
\set VERBOSITY sqlstate
SELECT replace(t, 'cms:v1:', 'cms:v3:')::cmsketch FROM cms_v1_text WHERE what LIKE 'uuid:%';
SELECT overlay(t::cmsketch::bytea PLACING '\x03'::bytea FROM 1)::cmsketch FROM cms_v1_text WHERE what LIKE 'uuid:%';
\set VERBOSITY default

DROP TABLE cms_v1, cms_v1_text;

-- test/data/cmsketch_v2.tsv holds sketches written in format version 2 when it
-- was introduced (text as UTF-8, family other through canonical forms): the
-- same text comes back and the same counts are found.
CREATE TABLE cms_v2 (what text, s cmsketch);
\copy cms_v2 FROM 'test/data/cmsketch_v2.tsv'
CREATE TABLE cms_v2_text (what text, t text);
\copy cms_v2_text FROM 'test/data/cmsketch_v2.tsv'
SELECT what, i.format_version, i.family, i.total, s::text = t AS identical_text
FROM cms_v2 JOIN cms_v2_text USING (what), LATERAL cms_info(s) i ORDER BY what;
SELECT (SELECT cms_estimate(s, 'caf' || chr(233)) FROM cms_v2 WHERE what LIKE 'text:%') AS cafe,
       (SELECT cms_estimate(s, ARRAY['k', '3']) FROM cms_v2 WHERE what LIKE 'array%') AS k3,
       (SELECT cms_estimate(s, ROW(2::int8, 'r'::varchar)) FROM cms_v2 WHERE what LIKE 'record%') AS r2;
DROP TABLE cms_v2, cms_v2_text;
