-- Estimates from a filter's bits: item counts with bounds, union and
-- intersection counts, similarity, and the current false-positive rate.
CREATE EXTENSION IF NOT EXISTS bloomsketch;

-- Edges: an empty filter holds 0 items; a full filter gives Infinity, never NaN.
SELECT bloom_cardinality(bloom_create(1000)) AS empty,
       bloom_cardinality(f) AS full_filter, round(b.lower::numeric, 3) AS lower, b.upper, bloom_fpr(f) AS full_fpr
FROM (SELECT bloom_agg(i, 1, 0.5) AS f FROM generate_series(1, 100) i) s, LATERAL bloom_cardinality_bounds(f) b;
SELECT (bloom_cardinality_bounds(bloom_create(1000))).*, bloom_fpr(bloom_create(1000)) AS empty_fpr;
SELECT bloom_cardinality_bounds(bloom_create(10), 1.5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- Filters of about 2^20 bits (capacity 109,400 at 1%: m = 1,049,471), filled
-- from 5% to 90% with distinct values.  The 95% bounds cover the true count,
-- and the estimate is within a few percent of it.
CREATE TABLE est_fill AS
SELECT fill, n, bloom_agg(i, 109400, 0.01) AS f
FROM (VALUES (0.05), (0.25), (0.50), (0.75), (0.90)) v(fill),
     LATERAL (SELECT round(ln(1 - fill) / ln(1 - 7.0 / 1049471))::int AS n) s,
     LATERAL generate_series(1, n) i
GROUP BY fill, n;
SELECT fill, n, (bloom_info(f)).bits, round((bloom_info(f)).bits_set::numeric / (bloom_info(f)).bits, 2) AS measured_fill,
       abs(bloom_cardinality(f) / n - 1) < 0.02 AS within_2_percent,
       b.lower <= n AND n <= b.upper AS bounds_cover,
       b.upper - b.lower < 0.05 * n AS bounds_narrow
FROM est_fill, LATERAL bloom_cardinality_bounds(f) b
ORDER BY fill;
-- Wider confidence, wider bounds.
SELECT bool_and((bloom_cardinality_bounds(f, 0.99)).lower <= (bloom_cardinality_bounds(f, 0.5)).lower
            AND (bloom_cardinality_bounds(f, 0.99)).upper >= (bloom_cardinality_bounds(f, 0.5)).upper) AS nested
FROM est_fill;
-- bloom_info reports the same figures.
SELECT bool_and((bloom_info(f)).estimated_items = bloom_cardinality(f)
            AND (bloom_info(f)).current_fpr = bloom_fpr(f)) AS info_agrees
FROM est_fill;

-- bloom_fpr agrees with the rate measured on 1,000,000 non-members, within
-- the 99.9% binomial interval around it.
SELECT round(p::numeric, 5) AS fpr, hits,
       abs(hits - 1000000 * p) <= 3.2905 * sqrt(1000000 * p * (1 - p)) AS inside_interval
FROM (SELECT bloom_fpr(f) AS p,
             (SELECT count(*) FROM generate_series(10000001, 11000000) i WHERE bloom_contains(f, i)) AS hits
      FROM est_fill WHERE fill = 0.50) s;

-- A small filter of a scheme with Kirsch and Mitzenmacher's Theta(1/n) term:
-- bloom_fpr counts the filter's own rate over every hash pair, so the rate
-- measured on 1,000,000 non-members lies within the 99.9% binomial interval
-- around it (a model from the fill alone misses by up to 2x here).
SELECT scheme, n, round(p::numeric, 6) AS fpr, hits,
       abs(hits - 1000000 * p) <= 3.2905 * sqrt(1000000 * p * (1 - p)) AS inside_interval
FROM (SELECT scheme, n, bloom_fpr(f) AS p,
             (SELECT count(*) FROM generate_series(10000001, 11000000) i WHERE bloom_contains(f, i)) AS hits
      FROM (SELECT scheme, n, (SELECT bloom_agg(g, n, fpr, scheme) FROM generate_series(1, n) g) AS f
            FROM (VALUES ('double', 10, 0.01), ('double_square', 10, 0.01),
                         ('double_cube', 100, 0.001), ('partition', 10, 0.01)) v(scheme, n, fpr)) small) s;

-- Union, intersection and Jaccard of two sets of 100,000 with 10% overlap,
-- at 10 bits per item (capacity 100,000 at 0.82%: m = 999,853).
CREATE TABLE est_pair AS
SELECT (SELECT bloom_agg(i, 100000, 0.0082) FROM generate_series(1, 100000) i) AS a,
       (SELECT bloom_agg(i, 100000, 0.0082) FROM generate_series(90001, 190000) i) AS b;
SELECT (bloom_info(a)).bits AS bits,
       abs(bloom_union_cardinality(a, b) / 190000 - 1) < 0.02 AS union_within_2_percent,
       abs(bloom_intersection_cardinality(a, b) - 10000) / 190000 < 0.02 AS intersection_error_below_2_percent_of_union,
       abs(bloom_jaccard(a, b) - 10000.0 / 190000) < 0.02 AS jaccard_within_002,
       bloom_union_cardinality(a, b) = bloom_cardinality(a | b) AS union_matches_operator
FROM est_pair;
-- Disjoint and identical sets.
SELECT round(bloom_jaccard(a, a)::numeric, 6) AS self_jaccard,
       bloom_intersection_cardinality(a, a) = bloom_cardinality(a) AS self_intersection,
       bloom_intersection_cardinality(a, bloom_create(100000, 0.0082)) AS with_empty,
       bloom_jaccard(bloom_create(10), bloom_create(10)) IS NULL AS empty_jaccard_null
FROM est_pair;
-- Mismatched operands: 22000.
SELECT bloom_jaccard(bloom_create(10), bloom_create(20));
\echo SQLSTATE :LAST_ERROR_SQLSTATE
