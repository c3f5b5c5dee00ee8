-- bloom_create: textbook sizing, argument checks, the size limit, NULLs.
CREATE EXTENSION IF NOT EXISTS bloomsketch;

-- Exact sizing for the way these filters probe (k distinct positions, the
-- 'classic' construction): m is the smallest prime at or above the smallest
-- m at which some k reaches an exact rate <= fpr, and k is the exact optimum
-- for that m, wherever Kirsch and Mitzenmacher's Theta(1/n) term adds less
-- than 2% to that rate (it does at these sizes).  The textbook m and k are
-- shown for comparison.
SELECT capacity, fpr, b.bits, b.hashes,
       b.bits >= bloom_optimal_bits(capacity, fpr, 'classic') AS at_least_optimal,
       b.hashes = bloom_optimal_k(b.bits, capacity, 'classic') AS optimal_k,
       bloom_fpr_exact(b.bits, capacity, b.hashes, 'classic') <= fpr AS meets_rate,
       ceil(-capacity * ln(fpr) / (ln(2) ^ 2)) AS textbook_bits,
       b.bits_set, b.items_added, b.bytes, b.seed
FROM (VALUES (1::bigint, 0.5::float8), (1, 0.01), (1000, 0.01), (1000, 0.001),
             (1000000, 0.01), (10000000, 0.01), (100, 0.9)) AS v(capacity, fpr),
     LATERAL bloom_info(bloom_create(capacity, fpr)) b
ORDER BY capacity, fpr;
-- Either no prime lies between the classic optimal m and the filter's m,
-- and the rate with the term is within 2% of the requested one, or (small
-- capacities, where the term adds more) the filter is larger and its rate
-- with the term is within the requested one.
WITH f AS (
	SELECT c, b.bits, b.hashes,
	       NOT EXISTS (SELECT 1 FROM generate_series(bloom_optimal_bits(c, 0.01, 'classic'), b.bits - 1) p
	                   WHERE p > 1 AND NOT EXISTS (SELECT 1 FROM generate_series(2, floor(sqrt(p))::int) d WHERE p % d = 0))
	           AS smallest_prime
	FROM generate_series(1, 2000, 37) c, LATERAL bloom_info(bloom_create(c, 0.01)) b)
SELECT smallest_prime, count(*), min(c) AS from_capacity, max(c) AS to_capacity,
       bool_and(bloom_expected_fpr(bits, c, hashes) <= 0.01) AS meets_rate_with_term,
       bool_and(bloom_expected_fpr(bits, c, hashes) <= 0.01 * 1.02) AS within_2_percent
FROM f GROUP BY smallest_prime ORDER BY smallest_prime;
-- A rate the scheme cannot reach at a practical size: 22023, with a hint.
SELECT bloom_create(5, 1e-10);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT hashes, bits FROM bloom_info(bloom_create(5, 1e-10, 0, 'independent'));

-- m is prime: no smaller odd number divides it.
SELECT bool_and(NOT EXISTS (SELECT 1 FROM generate_series(3, floor(sqrt(m))::int, 2) d WHERE m % d = 0)
                AND m % 2 = 1) AS all_prime
FROM (SELECT (bloom_info(bloom_create(c, 0.01))).bits AS m FROM generate_series(1, 2000, 37) c) s;

-- The default rate is 0.01 and the default seed is 0.
SELECT bloom_create(1000)::bytea = bloom_create(1000, 0.01, 0)::bytea AS defaults;
SELECT (bloom_info(bloom_create(10, 0.01, -1))).seed AS negative_seed;

-- Arguments out of range: 22023.
SELECT bloom_create(0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_create(-5, 0.01);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_create(10, 0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_create(10, 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_create(10, -0.5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_create(10, 'NaN');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_create(10, 'Infinity');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- Larger than the largest filter (750 MB of bits, so that the text form
-- stays under PostgreSQL's 1 GB value limit): 54000.  Past the space lower
-- bound (n log2(1/fpr) bits more than the largest filter) it is refused at
-- once, naming the most items that bound allows ...
SELECT bloom_create(9223372036854775807, 0.01);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_create(1000000000, 0.0001);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- ... and within it, after the sizing search, naming the largest capacity
-- that fits at that rate.
SELECT bloom_create(400000000, 0.0001);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- The capacity the message names fits, and one more does not.
SELECT (bloom_info(bloom_create(312940809, 0.0001))).bits AS largest_bits;
SELECT bloom_create(312940810, 0.0001);
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- Strict: NULL arguments give NULL.
SELECT bloom_create(NULL) IS NULL AS null_capacity,
       bloom_create(10, NULL) IS NULL AS null_fpr,
       bloom_create(10, 0.01, NULL) IS NULL AS null_seed;

-- Under the JIT with inlining (what a costly query gets by default), calls
-- with values from the rows work and agree with the interpreter.  (The
-- server exports a C function bloom_create of its own, which the JIT once
-- inlined in place of ours and crashed.)
CREATE TABLE create_sizes AS SELECT 100 + n AS capacity FROM generate_series(1, 20) n;
SET jit = on;
SET jit_above_cost = 0;
SET jit_inline_above_cost = 0;
SET jit_optimize_above_cost = 0;
CREATE TABLE create_jit AS SELECT capacity, bloom_create(capacity) AS f FROM create_sizes;
RESET jit;
RESET jit_above_cost;
RESET jit_inline_above_cost;
RESET jit_optimize_above_cost;
SELECT count(*) AS filters, bool_and(f = bloom_create(capacity)) AS same_as_interpreted
FROM create_jit;
DROP TABLE create_sizes, create_jit;
