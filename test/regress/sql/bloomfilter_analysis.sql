-- The exact false-positive analysis: values, orderings the theory
-- guarantees, tiny rates, argument checks and cancellation.  (The 1e-9
-- accuracy against exact rational arithmetic is checked by the core test
-- test/unit/analysis/test_analysis.c against test/data/analysis_reference.txt.)
CREATE EXTENSION IF NOT EXISTS bloomsketch;

-- Known small cases: m = 10 bits, n = 2 items, k = 2 hashes.
-- standard: E[(X/10)^2] over 4 independent balls = 0.1552 + ... computed
-- exactly by hand below; classic: eq. (60) with k = 2, n = 2.
SELECT round(bloom_fpr_exact(10, 2, 2)::numeric, 12) AS standard,
       round(bloom_fpr_exact(10, 2, 2, 'classic')::numeric, 12) AS classic,
       -- eq. (60): sum_i (-1)^i C(2,i) [C(10-i,2)/C(10,2)]^2
       round((1 - 2 * (36.0 / 45) ^ 2 + (28.0 / 45) ^ 2)::numeric, 12) AS classic_by_hand,
       round(bloom_fpr_approx(10, 2, 2)::numeric, 12) AS approx,
       round(((1 - exp(-0.4)) ^ 2)::numeric, 12) AS approx_by_hand;

-- The textbook rate is a lower bound; Corollary 23's bounds enclose both
-- constructions; more bits never raise the rate.
SELECT bool_and(bloom_fpr_approx(m, n, k) <= bloom_fpr_exact(m, n, k) * (1 + 1e-12)) AS approx_below_exact,
       bool_and(b.lower <= bloom_fpr_exact(m, n, k) * (1 + 1e-12) AND bloom_fpr_exact(m, n, k) <= b.upper * (1 + 1e-12)
            AND b.lower <= bloom_fpr_exact(m, n, k, 'classic') * (1 + 1e-12)
            AND bloom_fpr_exact(m, n, k, 'classic') <= b.upper * (1 + 1e-12)) AS bounds_enclose,
       bool_and(bloom_fpr_exact(m + 1, n, k) <= bloom_fpr_exact(m, n, k)) AS monotone_in_bits
FROM generate_series(50, 1000, 50) m, generate_series(1, 60, 7) n, generate_series(1, 12, 3) k,
     LATERAL bloom_fpr_bounds(m, n, k) b
WHERE k <= (m - 1) / 2;

-- The optimal k beats every other k (brute force), ties to the smaller k.
SELECT bool_and(bloom_fpr_exact(m, n, bloom_optimal_k(m, n)) <=
                (SELECT min(bloom_fpr_exact(m, n, k)) FROM generate_series(1, 40) k)) AS standard_optimal,
       bool_and(bloom_fpr_exact(m, n, bloom_optimal_k(m, n, 'classic'), 'classic') <=
                (SELECT min(bloom_fpr_exact(m, n, k, 'classic')) FROM generate_series(1, 40) k)) AS classic_optimal
FROM (VALUES (100, 10), (1000, 100), (1000, 50), (5000, 700), (9601, 1000)) v(m, n);
SELECT bloom_optimal_k(9601, 1000) AS standard_k, bloom_optimal_k(9601, 1000, 'classic') AS classic_k,
       round((9601.0 / 1000 * ln(2))::numeric, 2) AS textbook_k;

-- The smallest m reaching the rate: it reaches it, and m - 1 does not for any k.
SELECT n, fpr, m,
       bloom_fpr_exact(m, n, bloom_optimal_k(m, n, 'classic'), 'classic') <= fpr AS reaches,
       bloom_fpr_exact(m - 1, n, bloom_optimal_k(m - 1, n, 'classic'), 'classic') > fpr AS one_less_does_not
FROM (VALUES (1000::bigint, 0.01::float8), (100, 0.001), (10000, 0.05)) v(n, fpr),
     LATERAL bloom_optimal_bits(n, fpr, 'classic') m;

-- Efficiency against the lower bound n log2(1/p): about ln 2 for Bloom filters.
SELECT round(bloom_efficiency(9601, 1000, 7, 'classic')::numeric, 4) AS efficiency,
       round(bloom_space_lower_bound(1000, 0.01)::numeric, 2) AS lower_bound_bits,
       round((bloom_space_lower_bound(1000, 0.01) / 9601)::numeric, 4) AS bound_over_bits;

-- Tiny rates stay accurate down to 1e-300 and below (no underflow to 0).
-- One item in a classic filter: the rate is exactly 1 / C(m, k); at m = 6000,
-- k = 150 that is about 7.08e-304, well below 1e-300.
SELECT round(log(bloom_fpr_exact(6000, 1, 150, 'classic')::numeric), 9) AS log10_rate,
       round(-(SELECT sum(log((6000 - i + 1)::numeric) - log(i::numeric)) FROM generate_series(1, 150) i), 9) AS log10_one_over_binomial;
SELECT m, n, k, round(log(bloom_fpr_exact(m, n, k)::numeric), 6) AS log10_standard
FROM (VALUES (10000::bigint, 1::bigint, 150), (6000, 1, 150)) v(m, n, k);
-- Below the smallest double the rate is 0 (documented).
SELECT bloom_fpr_exact(20000, 10, 1000) AS below_double_range;
-- Few items in a huge filter: the rate keeps falling up to the cap on k, so
-- the optimal k is the cap, 1024, for both constructions, although the
-- classic rates there lie below even the long double range (1/C(1e11, 1024)
-- is about e^-19900).  Computed as 0 such rates would tie, and the search
-- would settle on a smaller k (571, 905 and 690 here).  Their efficiency is
-- finite too.
SELECT m, n, bloom_optimal_k(m, n, 'classic') AS classic_k, bloom_optimal_k(m, n) AS standard_k
FROM (VALUES (100000000000::bigint, 1::bigint), (100000000, 1), (100000000000, 10)) v(m, n);
SELECT bloom_efficiency(100000000000, 1, 1024, 'classic') > 0 AS classic_efficiency_finite;
-- Large filters answer quickly (a benchmark measures the time).
SELECT abs(bloom_fpr_exact(8589934592, 1000000000, 7) / bloom_fpr_approx(8589934592, 1000000000, 7) - 1) < 1e-6 AS large_close_to_approx,
       bloom_fpr_exact(8589934592, 1000000000, 7) >= bloom_fpr_approx(8589934592, 1000000000, 7) AS large_above_approx,
       bloom_optimal_k(8589934592, 1000000000, 'classic') AS large_optimal_k;
-- No items: rate 0.
SELECT bloom_fpr_exact(100, 0, 3) AS empty, (bloom_fpr_bounds(100, 0, 3)).*;

-- Invalid arguments: 22023.
SELECT bloom_fpr_exact(0, 10, 3);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_fpr_exact(100, -1, 3);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_fpr_exact(100, 10, 0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_fpr_exact(100, 10, 3, 'quantum');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_optimal_bits(100, 1.5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_space_lower_bound(100, 0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- A long computation can be cancelled: statement_timeout ends it with 57014.
-- 10^6 calls of about a second each cannot finish before the timeout.
SET statement_timeout = '100ms';
SELECT count(bloom_fpr_exact(m, 1, 50000)) FROM generate_series(5000, 1004999) m;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET statement_timeout;
