-- Text, binary and bytea forms of bloomfilter: every form gives back the
-- identical value.
CREATE EXTENSION bloomsketch;

-- The text form: a readable header, then the bits in base64.
SELECT bloom_create(10, 0.05, 7);
SELECT bloom_add(bloom_add(bloom_create(10, 0.05, 7), 1), 2);
SELECT bloom_add(bloom_create(3, 0.1, -42), 'abc'::text);

-- text -> value -> text is the identity, and so is value -> text -> value.
CREATE TABLE io_src AS
SELECT g, bloom_agg(i, 1000, 0.01) AS f
FROM generate_series(1, 3000) i, LATERAL (SELECT i % 3 AS g) s
GROUP BY g;

SELECT g,
       f::text::bloomfilter::text = f::text AS text_identity,
       f::text::bloomfilter::bytea = f::bytea AS value_identity,
       f::bytea::bloomfilter::bytea = f::bytea AS bytea_identity,
       length(f::bytea) = 36 + 8 * ((b.bits + 63) / 64) AS documented_length
FROM io_src, LATERAL bloom_info(f) b
ORDER BY g;

-- One value per family round-trips through text, including "other" types.
SELECT family, f::text::bloomfilter::text = f::text AS text_identity,
       f::bytea::bloomfilter::bytea = f::bytea AS bytea_identity
FROM (VALUES
	('integer', bloom_add(bloom_create(5), 5::int8)),
	('text', bloom_add(bloom_create(5), 'x'::text)),
	('bytea', bloom_add(bloom_create(5), '\x00ff'::bytea)),
	('uuid', bloom_add(bloom_create(5), '6ba7b810-9dad-11d1-80b4-00c04fd430c8'::uuid)),
	('numeric', bloom_add(bloom_create(5), 1.5::numeric)),
	('float', bloom_add(bloom_create(5), 1.5::float8)),
	('bool', bloom_add(bloom_create(5), true)),
	('date', bloom_add(bloom_create(5), '2024-02-29'::date)),
	('timestamp', bloom_add(bloom_create(5), '2024-02-29 12:00'::timestamp)),
	('timestamptz', bloom_add(bloom_create(5), '2024-02-29 12:00+00'::timestamptz)),
	('other', bloom_add(bloom_create(5), '10.0.0.1'::inet))
) AS v(family, f)
ORDER BY family;

-- The serialized header, byte by byte (docs/format.md documents this layout).
SELECT encode(substring(bloom_add(bloom_create(10, 0.05, 7), 1)::bytea FROM 1 FOR 36), 'hex') AS header;

-- Binary COPY out and back in gives the identical bytes.
-- (psql runs in the build directory, where pg_regress keeps results/.)
\copy io_src TO 'results/bloomfilter_io.bin' (FORMAT binary)
CREATE TABLE io_dst (LIKE io_src);
\copy io_dst FROM 'results/bloomfilter_io.bin' (FORMAT binary)
SELECT count(*) AS rows_back,
       bool_and(s.f::bytea = d.f::bytea) AS identical
FROM io_src s JOIN io_dst d USING (g);

-- Text COPY out and back in as well.
\copy io_src TO 'results/bloomfilter_io.txt'
TRUNCATE io_dst;
\copy io_dst FROM 'results/bloomfilter_io.txt'
SELECT count(*) AS rows_back,
       bool_and(s.f::bytea = d.f::bytea) AS identical
FROM io_src s JOIN io_dst d USING (g);

-- Binary receive runs the validator: a bytea with the same framing, but
-- truncated or with a padding bit set, is refused on COPY FROM with 22P03
-- (\copy does not set LAST_ERROR_SQLSTATE, so psql shows the code itself).
\set VERBOSITY sqlstate
\copy (SELECT 1, substring(f::bytea FROM 1 FOR 40) FROM io_src WHERE g = 0) TO 'results/bloomfilter_io_bad.bin' (FORMAT binary)
\copy io_dst FROM 'results/bloomfilter_io_bad.bin' (FORMAT binary)
\copy (SELECT 1, set_byte(bloom_create(10)::bytea, 36 + 15, 128) ) TO 'results/bloomfilter_io_bad.bin' (FORMAT binary)
\copy io_dst FROM 'results/bloomfilter_io_bad.bin' (FORMAT binary)

\set VERBOSITY default

-- Stored values survive TOAST (compressed and out of line) unchanged.
CREATE TABLE io_toast (f bloomfilter);
INSERT INTO io_toast SELECT bloom_agg(i, 100000) FROM generate_series(1, 50) i;
INSERT INTO io_toast SELECT bloom_agg(i, 100000) FROM generate_series(1, 100000) i;
SELECT pg_column_size(f) < (bloom_info(f)).bytes AS stored_smaller_than_value,
       f::bytea = (SELECT bloom_agg(i, 100000) FROM generate_series(1, (bloom_info(f)).items_added) i)::bytea AS identical
FROM io_toast ORDER BY (bloom_info(f)).items_added;
