-- The way a distributed engine runs bloom_agg: partial filters per shard,
-- shipped as text (or bytea), combined on the coordinator; and partitionwise
-- aggregation over a partitioned table.  All give the bytes of the filter
-- built on the whole table.
CREATE EXTENSION IF NOT EXISTS bloomsketch;

CREATE TABLE dist_events AS
SELECT i::bigint AS id, 'user-' || (i % 7919) AS name FROM generate_series(1, 200000) i;
CREATE TABLE dist_whole AS
SELECT bloom_agg(id, 200000) AS ids, bloom_agg(name, 10000, 0.001) AS names FROM dist_events;

-- Four "shards" by a hash of the id; each partial travels as text and as bytea.
CREATE TABLE dist_partials AS
SELECT abs(hashint8(id)) % 4 AS shard,
       bloom_agg(id, 200000)::text AS ids_text, bloom_agg(name, 10000, 0.001)::bytea AS names_bytea
FROM dist_events GROUP BY 1;
SELECT count(*) AS shards,
       bloom_union_agg(ids_text::bloomfilter) = (SELECT ids FROM dist_whole) AS ids_identical,
       bloom_union_agg(names_bytea::bloomfilter) = (SELECT names FROM dist_whole) AS names_identical
FROM dist_partials;

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
\set q 'SELECT bloom_agg(id, 200000) = (SELECT ids FROM dist_whole) AS ids_identical, bloom_agg(name, 10000, 0.001) = (SELECT names FROM dist_whole) AS names_identical FROM dist_parted'
SELECT dist_plan(:'q') LIKE '%"Partial Mode": "Partial"%' AS partitionwise_partials;
:q;
RESET ALL;
