-- bloom_fit_agg: filters sized for the distinct values their group received
-- (docs/fit.md).  Sizes, rates, byte identity however the rows are split,
-- unions of different sizes, the ceiling, and hostile partial states.
CREATE EXTENSION IF NOT EXISTS bloomsketch;

-- Sizes and rates: groups of 1 to 100,000 distinct values (each value twice,
-- so repeats must not count) at three rates.  A group of 10 takes tens of
-- bytes; its size is the smallest power of two (at least 8 and k) whose
-- expected rate for n (bloom_fpr_exact, the standard model) is within the
-- rate asked for, and within twice the bytes bloom_create would take for
-- that many values.
CREATE TABLE fit_groups AS
SELECT n, fpr, bloom_fit_agg(v % n, fpr) AS f
FROM (VALUES (1), (10), (100), (1000), (10000), (100000)) s(n),
     (VALUES (0.1::float8), (0.01), (0.001)) r(fpr),
     LATERAL generate_series(1, 2 * n) v
GROUP BY n, fpr;
SELECT n, fpr, b.bits, b.hashes, b.bytes, b.items_added = 2 * n AS repeats_counted,
       bloom_fpr_exact(b.bits, n, b.hashes) <= fpr AS expected_within_rate,
       b.bits / 2 < greatest(8, b.hashes) OR bloom_fpr_exact(b.bits / 2, n, b.hashes) > fpr AS half_misses,
       b.over_ceiling,
       b.bytes <= 2 * (bloom_info(bloom_create(n, fpr))).bytes AS within_twice_capacity_form
FROM fit_groups, LATERAL bloom_info(f) b ORDER BY fpr DESC, n;

-- Measured: 200,000 non-members per filter; the count must be within the
-- one-sided 99.9% bound of a binomial at the rate asked for (the normal
-- approximation's 3.09 sigma, plus one).  The promise is the expected rate:
-- one filter's own rate may exceed the rate asked for, though none of these
-- does; test/unit/bloom/test_fit.c counts over many filters per size, with the exact
-- binomial bound.
SELECT n, fpr,
       count(*) FILTER (WHERE bloom_contains(f, 1000000000 + q)) AS false_positives,
       count(*) FILTER (WHERE bloom_contains(f, 1000000000 + q)) <=
         200000 * fpr + 3.0902 * sqrt(200000 * fpr * (1 - fpr)) + 1 AS within_bound
FROM fit_groups, generate_series(1, 200000) q
WHERE n IN (10, 1000, 100000)
GROUP BY n, fpr ORDER BY fpr DESC, n;

-- No false negatives.
SELECT count(*) AS missing
FROM fit_groups, LATERAL generate_series(0, least(n, 2000) - 1) v
WHERE NOT bloom_contains(f, v::bigint);

-- The default rate is 1%; a group with only NULLs, or no rows, gives NULL.
SELECT bloom_fit_agg(v) = bloom_fit_agg(v, 0.01) AS default_rate,
       (bloom_info(bloom_fit_agg(v))).hashes AS k
FROM generate_series(1, 500) v;
SELECT bloom_fit_agg(NULL::int) IS NULL AS nulls_give_null,
       (SELECT bloom_fit_agg(v) FROM generate_series(1, 0) v) IS NULL AS empty_gives_null;
SELECT bloom_fit_agg(v) AS ten_values FROM generate_series(1, 10) v;

-- Byte identity: serial, forced parallel, partitionwise, shards' partial
-- states shipped as text and bytea and merged in different orders.
CREATE TABLE fit_events AS
SELECT i::bigint AS id, (i % 50)::int AS grp, 'user-' || (i % 7919) AS name
FROM generate_series(1, 200000) i;
ANALYZE fit_events;
SET max_parallel_workers_per_gather = 0;
CREATE TABLE fit_serial AS
SELECT bloom_fit_agg(id) AS ids, bloom_fit_agg(name, 0.001) AS names,
       bloom_fit_agg(id, 0.01, 65536) AS capped
FROM fit_events;
CREATE TABLE fit_serial_groups AS
SELECT grp, bloom_fit_agg(id) AS ids FROM fit_events GROUP BY grp;
SELECT (bloom_info(ids)).bits AS ids_bits, (bloom_info(names)).bits AS names_bits,
       (bloom_info(capped)).bits AS capped_bits, (bloom_info(capped)).over_ceiling,
       bloom_fpr(capped) > 0.01 AS capped_rate_honest
FROM fit_serial;

CREATE FUNCTION fit_plan(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (COSTS OFF, FORMAT JSON) ' || query INTO plan;
	RETURN plan::text;
END $$;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
\set q 'SELECT bloom_fit_agg(id) = (SELECT ids FROM fit_serial) AS ids_identical, bloom_fit_agg(name, 0.001) = (SELECT names FROM fit_serial) AS names_identical, bloom_fit_agg(id, 0.01, 65536) = (SELECT capped FROM fit_serial) AS capped_identical FROM fit_events'
SELECT fit_plan(:'q') LIKE '%"Partial Mode": "Partial"%' AS parallel_partials;
:q;
\set q 'SELECT bool_and(s.ids = g.ids) AS groups_identical, count(*) AS groups FROM (SELECT grp, bloom_fit_agg(id) AS ids FROM fit_events GROUP BY grp) g JOIN fit_serial_groups s USING (grp)'
SELECT fit_plan(:'q') LIKE '%"Partial Mode": "Partial"%' AS parallel_group_partials;
:q;
RESET ALL;

CREATE TABLE fit_parted (id bigint, name text) PARTITION BY HASH (id);
SELECT format('CREATE TABLE fit_parted_%s PARTITION OF fit_parted FOR VALUES WITH (MODULUS 8, REMAINDER %s)', r, r)
FROM generate_series(0, 7) r \gexec
INSERT INTO fit_parted SELECT id, name FROM fit_events;
ANALYZE fit_parted;
SET enable_partitionwise_aggregate = on;
SET max_parallel_workers_per_gather = 0;
\set q 'SELECT bloom_fit_agg(id) = (SELECT ids FROM fit_serial) AS ids_identical, bloom_fit_agg(name, 0.001) = (SELECT names FROM fit_serial) AS names_identical FROM fit_parted'
SELECT fit_plan(:'q') LIKE '%"Partial Mode": "Partial"%' AS partitionwise_partials;
:q;
RESET ALL;

-- A distributed engine's way: the transition function per shard, the state
-- shipped through the type's text form, the combine function and the final function on
-- the coordinator, in any order of the shards.
CREATE AGGREGATE fit_partial(bigint, float8, bigint) (SFUNC = bloom_fit_agg_trans, STYPE = bloomfilter);
CREATE AGGREGATE fit_merge(bloomfilter) (SFUNC = bloom_fit_agg_combine, STYPE = bloomfilter,
	FINALFUNC = bloom_fit_agg_final);
CREATE TABLE fit_shards AS
SELECT shard, fit_partial(id, 0.01, 134217728)::text AS state_text,
       fit_partial(id, 0.01, 65536)::text AS capped_text
FROM fit_events, LATERAL (SELECT abs(hashint8(id)) % 5 AS shard) s GROUP BY shard;
SELECT count(*) AS shards,
       bool_and(state_text::bloomfilter::text = state_text) AS text_round_trips,
       min(split_part(state_text, ':', 3)) AS state_scheme
FROM fit_shards;
SELECT o AS shard_order,
       fit_merge(state_text::bloomfilter ORDER BY (shard * o) % 5) = (SELECT ids FROM fit_serial) AS ids_identical,
       fit_merge(capped_text::bloomfilter ORDER BY (shard * o) % 5) = (SELECT capped FROM fit_serial) AS capped_identical
FROM fit_shards, generate_series(1, 4) o GROUP BY o ORDER BY o;
-- small shards: states of a few hashes, merged
SELECT fit_merge(p ORDER BY s DESC) = (SELECT bloom_fit_agg(v::bigint) FROM generate_series(1, 30) v) AS small_identical
FROM (SELECT s, fit_partial(v::bigint, 0.01, 134217728) AS p
      FROM generate_series(1, 30) v, LATERAL (SELECT v % 3 AS s) x GROUP BY s) t;

-- Unions and intersections of different sizes lose no member, and bloom_fpr
-- reports the rate of the bits they have.
CREATE TABLE fit_pair AS
SELECT (SELECT bloom_fit_agg(v::bigint) FROM generate_series(1, 20) v) AS small,
       (SELECT bloom_fit_agg(v::bigint) FROM generate_series(11, 5000) v) AS large;
SELECT (bloom_info(small)).bits AS small_bits, (bloom_info(large)).bits AS large_bits,
       (bloom_info(small | large)).bits AS union_bits, (bloom_info(small & large)).bits AS intersection_bits,
       (SELECT count(*) FROM generate_series(1, 5000) v WHERE NOT bloom_contains(small | large, v::bigint)) AS union_missing,
       (SELECT count(*) FROM generate_series(11, 20) v WHERE NOT bloom_contains(small & large, v::bigint)) AS intersection_missing,
       (small | large) = (large | small) AS union_commutes,
       (bloom_info(small | large)).items_added AS union_items,
       (small | large)::text::bloomfilter = (small | large) AS union_text_round_trips,
       (small & large)::bytea::bloomfilter = (small & large) AS intersection_bytes_round_trip
FROM fit_pair;
SELECT bloom_union_agg(f) = (SELECT small | large FROM fit_pair) AS union_agg_same
FROM (SELECT small AS f FROM fit_pair UNION ALL SELECT large FROM fit_pair) s;
SELECT abs(bloom_fpr(small | large) - q.measured) < 0.01 AS union_rate_honest
FROM fit_pair, LATERAL (SELECT avg(bloom_contains(small | large, 1000000 + g)::int) AS measured
                        FROM generate_series(1, 100000) g) q;

-- Combining with capacity-sized filters, or another rate, is refused (22000).
\set VERBOSITY default
SELECT small | bloom_agg(v::bigint, 100) FROM fit_pair, generate_series(1, 10) v GROUP BY small;
SELECT (SELECT bloom_fit_agg(v::bigint, 0.01) FROM generate_series(1, 10) v) |
       (SELECT bloom_fit_agg(v::bigint, 0.001) FROM generate_series(1, 10) v);
-- bloom_create and bloom_agg do not take the fit schemes (22023)
SELECT bloom_create(100, 0.01, 0, 'fit');
-- parameters (22023, 54000, 22004) and one rate per group
SELECT bloom_fit_agg(v, 0) FROM generate_series(1, 3) v;
SELECT bloom_fit_agg(v, 0.01, 1000) FROM generate_series(1, 3) v;
SELECT bloom_fit_agg(v, 0.01, 7000000000) FROM generate_series(1, 3) v;
SELECT bloom_fit_agg(v, NULL) FROM generate_series(1, 3) v;
SELECT bloom_fit_agg(v, 0.01 * (1 + v % 2)) FROM generate_series(1, 3) v;
SELECT bloom_fit_agg_trans(NULL, 1::bigint);

-- A partial state is refused wherever a filter is expected (22023), and a
-- hostile one is refused on input (22P02 text, 22P03 bytes).
SELECT bloom_contains(state_text::bloomfilter, 1::bigint) FROM fit_shards WHERE shard = 0;
SELECT small | (SELECT state_text::bloomfilter FROM fit_shards WHERE shard = 0) FROM fit_pair;
SELECT 'bloom:v2:fit_partial:integer:k=7:m=128:seed=0:items=0:AAAAAAAAAAAAAAAAAAAAAA=='::bloomfilter;
-- payloads: the rate 0.01 (k = 7) and a ceiling of 65,536 bits, little-endian
\set rate '7b14ae47e17a843f'
\set ceiling '0000010000000000'
-- two hashes out of order; a rate whose k is not 7; a ceiling not a power of two
SELECT ('bloom:v2:fit_partial:integer:k=7:m=384:seed=0:items=2:' ||
        encode(decode(:'rate' || :'ceiling' || repeat('02', 16) || repeat('01', 16), 'hex'), 'base64'))::bloomfilter;
SELECT ('bloom:v2:fit_partial:integer:k=7:m=256:seed=0:items=1:' ||
        encode(decode('9a9999999999b93f' || :'ceiling' || repeat('01', 16), 'hex'), 'base64'))::bloomfilter;
SELECT ('bloom:v2:fit_partial:integer:k=7:m=256:seed=0:items=1:' ||
        encode(decode(:'rate' || '0000030000000000' || repeat('01', 16), 'hex'), 'base64'))::bloomfilter;
-- more distinct hashes than values added, and the out-of-order pair as bytes
-- (header: version 2, scheme 8, family 1, k = 7, m, seed 0, items)
SELECT ('bloom:v2:fit_partial:integer:k=7:m=256:seed=0:items=0:' ||
        encode(decode(:'rate' || :'ceiling' || repeat('01', 16), 'hex'), 'base64'))::bloomfilter;
SELECT decode('02080100' || '0700' || '0000' || '00000000' || '8001000000000000' ||
              '0000000000000000' || '0200000000000000' ||
              :'rate' || :'ceiling' || repeat('02', 16) || repeat('01', 16), 'hex')::bloomfilter;
-- fit filters: m a power of two, flags only 0 to 3 (fit_over_ceiling, fit_mixed, ...)
SELECT 'bloom:v2:fit:integer:k=7:m=96:seed=0:items=1:AAAAAAAAAAAAAAAA'::bloomfilter;
SELECT 'bloom:v2:fit_over_ceiling:none:k=7:m=64:seed=0:items=0:AAAAAAAAAAA='::bloomfilter;
SELECT decode('02070004' || '0700' || '0000' || '00000000' || '4000000000000000' ||
              '0000000000000000' || '0000000000000000' || '0000000000000000', 'hex')::bloomfilter;
