-- The way a distributed engine runs the aggregates of filters and sketches:
-- partial states per shard, shipped as text, bytea or binary COPY, combined on
-- the coordinator; partitionwise aggregation over a partitioned table; and the
-- merge aggregates under a parallel plan.  All give the bytes of the value
-- built on the whole table in one pass.
CREATE EXTENSION IF NOT EXISTS bloomsketch;

CREATE TABLE dist_events AS
SELECT i::bigint AS id, 'user-' || (i % 7919) AS name FROM generate_series(1, 200000) i;
CREATE TABLE dist_whole AS
SELECT bloom_agg(id, 200000) AS ids, bloom_agg(name, 10000, 0.001) AS names,
       cms_agg(name) AS name_counts, cms_agg(id % 1000, 0.01, 0.01) AS id_counts
FROM dist_events;

-- No aggregate of the extension shares a name with a built-in aggregate (a
-- distributed planner may match aggregates by bare name).
SELECT count(*) AS clashing_aggregate_names
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'bloomsketch'
WHERE p.prokind = 'a'
  AND p.proname IN (SELECT proname FROM pg_proc WHERE prokind = 'a' AND pronamespace = 'pg_catalog'::regnamespace);

-- Four "shards" by a hash of the id; each partial travels as text and as bytea.
CREATE TABLE dist_partials AS
SELECT abs(hashint8(id)) % 4 AS shard,
       bloom_agg(id, 200000)::text AS ids_text, bloom_agg(name, 10000, 0.001)::bytea AS names_bytea
FROM dist_events GROUP BY 1;
SELECT count(*) AS shards,
       bloom_union_agg(ids_text::bloomfilter) = (SELECT ids FROM dist_whole) AS ids_identical,
       bloom_union_agg(names_bytea::bloomfilter) = (SELECT names FROM dist_whole) AS names_identical
FROM dist_partials;

-- The same for count-min sketches, merged with cms_merge_agg.
CREATE TABLE dist_cms_partials AS
SELECT abs(hashint8(id)) % 4 AS shard,
       cms_agg(name)::text AS names_text, cms_agg(id % 1000, 0.01, 0.01)::bytea AS ids_bytea
FROM dist_events GROUP BY 1;
SELECT count(*) AS shards,
       cms_merge_agg(names_text::cmsketch) = (SELECT name_counts FROM dist_whole) AS names_identical,
       cms_merge_agg(ids_bytea::cmsketch) = (SELECT id_counts FROM dist_whole) AS ids_identical
FROM dist_cms_partials;

-- And through binary COPY: out of the shards, into the coordinator.  The
-- file is in this run's results/ (pg_regress exports PG_ABS_BUILDDIR, and
-- \copy takes no psql variables, so the shell of PROGRAM reads it), where
-- no other run, concurrent or by another user, writes.
CREATE TABLE dist_binary_shipped (shard bigint, f bloomfilter, c cmsketch);
\copy (SELECT (abs(hashint8(id)) % 4)::bigint, bloom_agg(id, 200000), cms_agg(name) FROM dist_events GROUP BY 1) TO PROGRAM 'cat > "$PG_ABS_BUILDDIR/results/bloomfilter_distributed.copy"' WITH (FORMAT binary)
\copy dist_binary_shipped FROM PROGRAM 'cat "$PG_ABS_BUILDDIR/results/bloomfilter_distributed.copy"' WITH (FORMAT binary)
SELECT count(*) AS shards,
       bloom_union_agg(f) = (SELECT ids FROM dist_whole) AS filters_identical,
       cms_merge_agg(c) = (SELECT name_counts FROM dist_whole) AS sketches_identical
FROM dist_binary_shipped;

-- Partitionwise aggregation over 8 hash partitions.
CREATE TABLE dist_parted (id bigint, name text) PARTITION BY HASH (id);
SELECT format('CREATE TABLE dist_parted_%s PARTITION OF dist_parted FOR VALUES WITH (MODULUS 8, REMAINDER %s)', r, r)
FROM generate_series(0, 7) r \gexec
INSERT INTO dist_parted SELECT * FROM dist_events;
ANALYZE dist_parted;
SET enable_partitionwise_aggregate = on;
SET max_parallel_workers_per_gather = 0;
CREATE FUNCTION dist_plan(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (COSTS OFF, FORMAT JSON) ' || query INTO plan;
	RETURN plan::text;
END $$;
\set q 'SELECT bloom_agg(id, 200000) = (SELECT ids FROM dist_whole) AS ids_identical, bloom_agg(name, 10000, 0.001) = (SELECT names FROM dist_whole) AS names_identical, cms_agg(name) = (SELECT name_counts FROM dist_whole) AS name_counts_identical FROM dist_parted'
SELECT dist_plan(:'q') LIKE '%"Partial Mode": "Partial"%' AS partitionwise_partials;
:q;
RESET ALL;

-- The merge aggregates under a forced parallel plan: 2,000 filters and
-- sketches, combined in two workers and the leader, give the serial bytes.
CREATE TABLE dist_values AS
SELECT g, bloom_agg(id, 200000) AS f, cms_agg(name) AS c
FROM dist_events, LATERAL (SELECT id % 2000 AS g) x GROUP BY g;
ANALYZE dist_values;
SET max_parallel_workers_per_gather = 0;
CREATE TABLE dist_serial AS
SELECT bloom_union_agg(f) AS u, bloom_intersect_agg(f) AS i, cms_merge_agg(c) AS m FROM dist_values;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
\set q 'SELECT bloom_union_agg(f) = (SELECT u FROM dist_serial) AS union_identical, bloom_intersect_agg(f) = (SELECT i FROM dist_serial) AS intersection_identical, cms_merge_agg(c) = (SELECT m FROM dist_serial) AS merge_identical FROM dist_values'
SELECT dist_plan(:'q') LIKE '%"Partial Mode": "Partial"%' AS parallel_partials;
:q;
-- the union of all is the filter of all; the merge of all the sketch of all
SELECT bloom_union_agg(f) = (SELECT ids FROM dist_whole) AS union_is_whole,
       cms_merge_agg(c) = (SELECT name_counts FROM dist_whole) AS merge_is_whole
FROM dist_values;
RESET ALL;
