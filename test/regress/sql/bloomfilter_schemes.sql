-- Probing schemes: every scheme stores its name, finds every member, and
-- reaches the false-positive rate its own model predicts.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomsketch;
RESET client_min_messages;

CREATE TEMP TABLE schemes(scheme text PRIMARY KEY);
INSERT INTO schemes VALUES ('double'), ('double_square'), ('double_cube'),
	('partition'), ('independent'), ('blocked');

-- n = 20,000 members at the sizing for 2.16% (about 8 bits per member, the
-- rate of c = 8 with k = 6), built by bloom_agg with a fixed seed
CREATE TEMP TABLE built AS
SELECT scheme, (SELECT bloom_agg(i, 20000, 0.0216, scheme) FROM generate_series(1, 20000) i) AS f
FROM schemes;

SELECT scheme, (bloom_info(f)).scheme = scheme AS stored,
	round((bloom_info(f)).bits / 20000.0, 2) AS bits_per_item, (bloom_info(f)).hashes
FROM built ORDER BY scheme;

-- zero false negatives
SELECT scheme, (SELECT count(*) FROM generate_series(1, 20000) i WHERE NOT bloom_contains(f, i)) AS false_negatives
FROM built ORDER BY scheme;

-- 200,000 non-members: the count of false positives lies inside the 99.9%
-- binomial interval (z = 3.2905) around the scheme's expected rate
WITH measured AS (
	SELECT scheme, (bloom_info(f)).bits AS m, (bloom_info(f)).hashes AS k,
		(SELECT count(*) FROM generate_series(1000001, 1200000) i WHERE bloom_contains(f, i)) AS fp
	FROM built
), expected AS (
	SELECT *, bloom_expected_fpr(m, 20000, k, scheme) AS p FROM measured
)
SELECT scheme, p BETWEEN 0.019 AND 0.026 AS rate_near_target,
	abs(fp - 200000 * p) <= 3.2905 * sqrt(200000 * p * (1 - p)) AS inside_999_interval
FROM expected ORDER BY scheme;

-- the estimators use each scheme's occupancy model
SELECT scheme, abs(bloom_cardinality(f) - 20000) < 400 AS estimate_close,
	(bloom_cardinality_bounds(f)).lower <= 20000 AND (bloom_cardinality_bounds(f)).upper >= 20000 AS bounds_cover,
	abs(bloom_fpr(f) / bloom_expected_fpr((bloom_info(f)).bits, 20000, (bloom_info(f)).hashes, scheme) - 1) < 0.1 AS current_rate_close
FROM built ORDER BY scheme;

-- text and bytea round trips keep every scheme byte for byte
SELECT scheme, f::text::bloomfilter = f AS text_round_trip,
	f::text::bloomfilter::text = f::text AS text_identity,
	f::bytea::bloomfilter = f AS bytea_round_trip,
	split_part(f::text, ':', 3) = scheme AS text_names_scheme
FROM built ORDER BY scheme;

-- union and intersection need equal schemes; across schemes: 22000
SELECT scheme, bloom_intersect(f, f) = f AS self_intersection,
	(bloom_info(bloom_union(f, f))).bits_set = (bloom_info(f)).bits_set AS self_union_same_bits
FROM built ORDER BY scheme;
SELECT bloom_union(bloom_create(1000, scheme => 'double_square'), bloom_create(1000));
SELECT bloom_intersect(bloom_create(1000, scheme => 'double_cube'), bloom_create(1000, scheme => 'double_square'));

-- named arguments and shapes of bloom_create
SELECT s AS scheme, (bloom_info(bloom_create(1000, 0.01, scheme => s))).bits,
	(bloom_info(bloom_create(1000, 0.01, scheme => s))).hashes
FROM unnest(ARRAY['double', 'double_square', 'double_cube', 'partition', 'independent', 'blocked']) s;

-- bad schemes
SELECT bloom_create(1000, 0.01, 0, 'triple');
SELECT bloom_agg(i, 100, 0.01, 'Double') FROM generate_series(1, 3) i;
SELECT bloom_agg(i, 100, 0.01, NULL) FROM generate_series(1, 3) i;
SELECT bloom_agg(i, 100, 0.01, CASE WHEN i < 2 THEN 'double' ELSE 'blocked' END) FROM generate_series(1, 3) i;
-- a scheme per group from a column is read on every row, a constant or a
-- parameter once per query (bloom_agg checks which through its Aggref); all
-- three give the same filter
SELECT g, bloom_agg(i, 100, 0.01, CASE WHEN g = 0 THEN 'blocked' ELSE 'partition' END) =
	CASE WHEN g = 0 THEN bloom_agg(i, 100, 0.01, 'blocked') ELSE bloom_agg(i, 100, 0.01, 'partition') END
	AS column_scheme_matches
FROM generate_series(1, 40) i, LATERAL (SELECT i % 2 AS g) x GROUP BY g ORDER BY g;
PREPARE agg_with_scheme(text) AS
	SELECT bloom_agg(i, 100, 0.01, $1) = bloom_agg(i, 100, 0.01, 'blocked') AS parameter_scheme_matches
	FROM generate_series(1, 40) i;
SET plan_cache_mode = force_generic_plan;	-- $1 stays a Param
EXECUTE agg_with_scheme('blocked');
RESET plan_cache_mode;
DEALLOCATE agg_with_scheme;
SELECT bloom_expected_fpr(1000, 100, 7, 'partition');
SELECT bloom_expected_fpr(1000, 100, 7, 'blocked');
SELECT bloom_expected_fpr(1024, 100, 65, 'blocked');
-- an expected rate is a probability, also for an overfull filter, where
-- the blocked model's binomial weights, summed in double, would add up to a
-- little over 1 (1.0000000000004)
SELECT s AS scheme, bloom_expected_fpr(512000000, 1000000000, 64, s) BETWEEN 0.999999 AND 1 AS nearly_one_at_most_one
FROM unnest(ARRAY['double', 'double_square', 'double_cube', 'partition', 'independent', 'blocked']) s;
-- a text value whose shape does not suit its scheme: a prime m is not k subarrays
SELECT 'bloom:v1:partition:none:k=7:m=97:seed=0:items=0:AAAAAAAAAAAAAAAA'::bloomfilter;
SELECT 'bloom:v1:blocked:none:k=7:m=97:seed=0:items=0:AAAAAAAAAAAAAAAA'::bloomfilter;
SELECT 'bloom:v1:quadruple:none:k=7:m=97:seed=0:items=0:AAAAAAAAAAAAAAAA'::bloomfilter;

-- the blocked scheme's model agrees with the standard one on a single block
SELECT abs(bloom_expected_fpr(512, 40, 5, 'blocked') / bloom_fpr_exact(512, 40, 5, 'standard') - 1) < 1e-9 AS one_block_is_standard;

-- the scheme argument under a parallel plan: byte-identical to the serial plan
CREATE TABLE scheme_numbers AS SELECT i FROM generate_series(1, 100000) i;
ANALYZE scheme_numbers;
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE serial_built AS
SELECT s AS scheme, (SELECT bloom_agg(i, 100000, 0.01, s) FROM scheme_numbers) AS f
FROM unnest(ARRAY['partition', 'blocked', 'independent']) s;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
CREATE FUNCTION pg_temp.plan_of(query text) RETURNS json LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON) ' || query INTO plan;
	RETURN plan;
END $$;
SELECT scheme, pg_temp.plan_of(format('SELECT bloom_agg(i, 100000, 0.01, %L) FROM scheme_numbers', scheme))::text
	LIKE '%"Partial Mode": "Partial"%' AS partial_aggregate
FROM serial_built ORDER BY scheme;
-- (uncorrelated, so each aggregate runs with the parallel plan checked above)
SELECT (SELECT bloom_agg(i, 100000, 0.01, 'blocked') FROM scheme_numbers) =
	(SELECT f FROM serial_built WHERE scheme = 'blocked') AS blocked_parallel_equals_serial,
	(SELECT bloom_agg(i, 100000, 0.01, 'independent') FROM scheme_numbers) =
	(SELECT f FROM serial_built WHERE scheme = 'independent') AS independent_parallel_equals_serial,
	(SELECT bloom_agg(i, 100000, 0.01, 'partition') FROM scheme_numbers) =
	(SELECT f FROM serial_built WHERE scheme = 'partition') AS partition_parallel_equals_serial;
DROP TABLE scheme_numbers;
