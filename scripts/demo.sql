-- scripts/demo.sql — a demonstration of bloomsketch 0.2.0 on a small web shop.
-- Runs against any server where the extension is available:
--     psql -X -v ON_ERROR_STOP=1 -f scripts/demo.sql
-- Everything it makes lives in the schema bloomsketch_demo, which it drops at
-- the end; it touches no other table.  Deterministic: the data come from
-- setseed() + random() and generate_series, so every run prints the same
-- results.  Only the "(... ms)" lines vary from run to run.

\set QUIET on
\pset footer off
\pset null '-'
SET client_min_messages = warning;
SET jit = off;

-- The extension goes where the session's search_path puts it (if it is not
-- there yet); the demo's objects go into a schema of their own.
CREATE EXTENSION IF NOT EXISTS bloomsketch;
SELECT n.nspname AS ext_schema, n.nspname = 'bloomsketch_demo' AS ext_in_demo_schema
FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
WHERE e.extname = 'bloomsketch' \gset
\if :ext_in_demo_schema
\echo 'bloomsketch is installed in the schema bloomsketch_demo, which this demo drops at its end: stopping.'
\quit
\endif
DROP SCHEMA IF EXISTS bloomsketch_demo CASCADE;
CREATE SCHEMA bloomsketch_demo;
SELECT set_config('search_path', format('bloomsketch_demo, %I, public', :'ext_schema'), false) \gset

\echo
\echo '================================================================================'
\echo ' bloomsketch demo: filters, count-min sketches and heavy hitters over a shop log'
\echo '================================================================================'

-- ---------------------------------------------------------------------------
\echo
\echo '== 0. The data ================================================================='
\echo 'A page-view log of 400,000 events over two weeks (2024-03-04 .. 2024-03-17) by'
\echo 'user ids 1..40,000: 2,000 heavy users make 40% of the events, 8,000 regular'
\echo 'users 45%, 30,000 occasional users the last 15%.  The 2,000 pages are skewed'
\echo 'too: page /p/i is viewed about 1/i as often as /p/1.  And an order table:'
\echo '400 customers, customer c bought ceil(4000 / c) distinct products, from 4,000'
\echo 'products for customer 1 down to 10 for customer 400.'

SELECT clock_timestamp() AS t0 \gset
SELECT setseed(0.42) \gset
CREATE TABLE events AS
SELECT date '2024-03-04' + floor(14 * d)::int AS day,
       -- a rank by activity, scattered over the id space (7919 is prime to
       -- 40000, so this is a permutation of 0..39999)
       1 + ((CASE WHEN seg < 0.40 THEN floor(r * 2000)              -- heavy
                  WHEN seg < 0.85 THEN 2000 + floor(r * 8000)       -- regular
                  ELSE 10000 + floor(r * 30000) END)::int           -- occasional
            * 7919) % 40000 AS user_id,
       '/p/' || floor(exp(p * ln(2001)))::int AS page,            -- log-uniform: ~1/i
       (ARRAY['view', 'view', 'view', 'click', 'click', 'search', 'cart',
              'purchase'])[1 + floor(k * 8)::int] AS kind
FROM (SELECT random() AS seg, random() AS r, random() AS d, random() AS p,
             random() AS k
      FROM generate_series(1, 400000)) AS draws
ORDER BY day;
ANALYZE events;

CREATE TABLE orders AS
SELECT c AS customer_id, 1 + (c * 1009 + j * 7919) % 100000 AS product_id
FROM generate_series(1, 400) AS c,
     LATERAL generate_series(1, ceil(4000.0 / c)::int) AS j;
ANALYZE orders;
SELECT round(1000 * extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)) AS ms \gset

SELECT to_char(count(*), 'FM9,999,999') AS events,
       count(DISTINCT day) AS days,
       to_char(count(DISTINCT user_id), 'FM9,999,999') AS distinct_users,
       count(DISTINCT page) AS distinct_pages,
       (SELECT to_char(count(*), 'FM9,999,999') FROM orders) AS orders,
       (SELECT count(DISTINCT customer_id) FROM orders) AS customers
FROM events;
\echo '   (generated in' :ms 'ms; timings vary from run to run and are informative only)'

-- ---------------------------------------------------------------------------
\echo
\echo '== 1. One Bloom filter per day: who was active? ================================'
\echo '    CREATE TABLE day_users AS'
\echo '    SELECT day, bloom_agg(user_id, 20000, 0.01) AS users FROM events GROUP BY day;'
\echo 'Each filter is sized for 20,000 distinct users at a 1% false-positive rate.  A'
\echo 'filter never misses a member; it may say yes for a non-member.'

CREATE TABLE day_users AS
SELECT day, bloom_agg(user_id, 20000, 0.01) AS users FROM events GROUP BY day;
CREATE TABLE day_exact AS
SELECT day, count(*) AS events, count(DISTINCT user_id) AS users FROM events GROUP BY day;

\echo
\echo 'Every one of the 400,000 events probed against the filter of its day:'
SELECT to_char(count(*), 'FM9,999,999') AS "events probed",
       count(*) FILTER (WHERE NOT bloom_contains(f.users, e.user_id)) AS "missed (must be 0)"
FROM events e JOIN day_users f USING (day);

SELECT (SELECT user_id FROM events GROUP BY user_id ORDER BY count(*) DESC, user_id LIMIT 1) AS heavy_user,
       (SELECT user_id FROM events GROUP BY user_id HAVING count(*) = 3 AND count(DISTINCT day) = 3
        ORDER BY user_id LIMIT 1) AS occasional_user,
       (SELECT min(g) FROM generate_series(1, 40000) AS g
        WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.user_id = g)) AS absent_user
\gset

\echo
\echo 'On how many of the 14 days was a user active?  From the 14 filter rows, next to'
\echo 'the log; ids 50,001..60,000 never occur, so every "yes" for them is a false'
\echo 'positive (10,000 ids x 14 filters = 140,000 probes):'
WITH examples(user_id, profile) AS (VALUES
	(:heavy_user, 'the heaviest user'),
	(:occasional_user, 'an occasional user'),
	(:absent_user, 'an id never seen in the log'))
SELECT x.user_id::text, x.profile,
       (SELECT count(*) FROM day_users f WHERE bloom_contains(f.users, x.user_id)) AS "days (filters)",
       (SELECT count(DISTINCT day) FROM events e WHERE e.user_id = x.user_id) AS "days (exact)"
FROM examples x
UNION ALL
SELECT '50001..60000', 'ids outside the log',
       (SELECT count(*) FROM day_users f, generate_series(50001, 60000) AS g
        WHERE bloom_contains(f.users, g)),
       0;
SELECT round(100.0 * count(*) FILTER (WHERE bloom_contains(f.users, g)) / count(*), 3)
           AS "measured false-positive rate %",
       round((100 * avg(bloom_fpr(f.users)))::numeric, 3) AS "predicted from the fill %"
FROM day_users f, generate_series(50001, 60000) AS g;

\echo
\echo 'Filters of the same parameters union exactly: the users of each week from 7'
\echo 'rows (bloom_union_agg), estimated from the set bits, next to the exact count:'
SELECT 'week of ' || min(f.day) AS week,
       round(bloom_cardinality(bloom_union_agg(f.users))) AS "distinct users (estimate)",
       (SELECT count(DISTINCT user_id) FROM events e
        WHERE e.day BETWEEN min(f.day) AND max(f.day)) AS "distinct users (exact)"
FROM day_users f
GROUP BY (f.day - date '2024-03-04') / 7
ORDER BY 1;
SELECT 'users active in both weeks' AS quantity,
       round(bloom_intersection_cardinality(
           (SELECT bloom_union_agg(users) FROM day_users WHERE day < date '2024-03-11'),
           (SELECT bloom_union_agg(users) FROM day_users WHERE day >= date '2024-03-11'))) AS estimate,
       (SELECT count(*) FROM (SELECT user_id FROM events WHERE day < date '2024-03-11'
                              INTERSECT
                              SELECT user_id FROM events WHERE day >= date '2024-03-11') b) AS exact;

-- ---------------------------------------------------------------------------
\echo
\echo '== 2. Filters that size themselves: one per customer ==========================='
\echo 'With bloom_agg every group gets the capacity asked for, here that of the'
\echo 'largest customer (4,000 products).  bloom_fit_agg needs no capacity: it sees'
\echo 'the whole group, then picks the smallest power of two of bits that meets the'
\echo 'rate for the distinct values the group really has.'
\echo '    SELECT customer_id, bloom_agg(product_id, 4000, 0.01) FROM orders GROUP BY 1;'
\echo '    SELECT customer_id, bloom_fit_agg(product_id, 0.01)   FROM orders GROUP BY 1;'

CREATE TABLE customer_filters AS
SELECT customer_id, count(*) AS products,
       bloom_agg(product_id, 4000, 0.01) AS fixed,
       bloom_fit_agg(product_id, 0.01) AS fit
FROM orders GROUP BY customer_id;

\echo
\echo 'Bytes stored, by customer size:'
SELECT CASE WHEN products >= 400 THEN '1. 400+ products'
            WHEN products >= 40 THEN '2. 40..399 products'
            ELSE '3. 10..39 products' END AS customers,
       count(*) AS "n",
       to_char(sum(products), 'FM999,999') AS products,
       pg_size_pretty(sum(pg_column_size(fixed))) AS "bloom_agg(.., 4000)",
       pg_size_pretty(sum(pg_column_size(fit))) AS "bloom_fit_agg",
       round(sum(pg_column_size(fixed))::numeric / sum(pg_column_size(fit)), 1) AS "fixed / fit"
FROM customer_filters GROUP BY ROLLUP (1) ORDER BY 1 NULLS LAST;
SELECT pg_size_pretty(sum(pg_column_size(fixed)) - sum(pg_column_size(fit))) AS "bytes saved",
       round(100.0 * (1 - sum(pg_column_size(fit))::numeric / sum(pg_column_size(fixed))), 1)
           AS "% saved"
FROM customer_filters;

\echo
\echo 'Sizes are powers of two, so a large group may get up to about twice the bits'
\echo 'it needs (and a lower rate than asked for): the largest customer costs more'
\echo 'than with bloom_agg, the many small ones far less.'
\echo
\echo 'A few customers: each fit filter has its own size, and its own false-positive'
\echo 'rate (bloom_fpr, within the 1% asked for) next to the rate measured on 2,000'
\echo 'products nobody bought (ids 200,001..202,000):'
SELECT c.customer_id, c.products AS "products (exact)",
       round(bloom_cardinality(c.fit)) AS "products (estimate)",
       i.bits, i.hashes, pg_column_size(c.fixed) AS "fixed bytes", i.bytes AS "fit bytes",
       round((100 * i.current_fpr)::numeric, 3) AS "predicted fpr %",
       round(100.0 * (SELECT count(*) FROM generate_series(200001, 202000) g
                      WHERE bloom_contains(c.fit, g)) / 2000, 3) AS "measured fpr %"
FROM customer_filters c CROSS JOIN LATERAL bloom_info(c.fit) i
WHERE c.customer_id IN (1, 4, 10, 40, 100, 400)
ORDER BY c.customer_id;
SELECT to_char(count(*), 'FM999,999') AS "orders probed against their customer's fit filter",
       count(*) FILTER (WHERE NOT bloom_contains(c.fit, o.product_id)) AS "missed (must be 0)"
FROM orders o JOIN customer_filters c USING (customer_id);

-- ---------------------------------------------------------------------------
\echo
\echo '== 3. Top pages per day, merged into a week ===================================='
\echo 'topk_agg keeps a summary of 50 counters per day (Misra-Gries); topk_merge_agg'
\echo 'merges seven of them into the week.  Each listed page comes with bounds that'
\echo 'hold after any merge: lower_bound <= true count <= upper_bound.'
\echo '    CREATE TABLE day_pages AS SELECT day, topk_agg(page, 50) AS pages FROM events GROUP BY day;'

CREATE TABLE day_pages AS
SELECT day, topk_agg(page, 50) AS pages FROM events GROUP BY day;
CREATE TABLE week_pages AS
SELECT topk_merge_agg(pages) AS pages FROM day_pages
WHERE day BETWEEN date '2024-03-04' AND date '2024-03-10';

\echo
\echo 'The week of 2024-03-04, top 10 pages, next to the exact counts from the log:'
SELECT t.value AS page, t.lower_bound, x.exact AS "exact count", t.upper_bound,
       CASE WHEN x.exact BETWEEN t.lower_bound AND t.upper_bound THEN 'yes'
            ELSE 'NO (must never happen)' END AS "within bounds"
FROM week_pages w
CROSS JOIN LATERAL topk_items(w.pages) t
LEFT JOIN (SELECT page, count(*) AS exact FROM events
           WHERE day BETWEEN date '2024-03-04' AND date '2024-03-10'
           GROUP BY page) x ON x.page = t.value
ORDER BY t.count DESC, t.value
LIMIT 10;
\echo 'max_error: no page missing from the list was viewed more often than that, and'
\echo 'error_bound = N / (counters + 1) bounds max_error:'
SELECT i.counters, i.entries, i.total AS "N (views)", i.max_error,
       round(i.error_bound::numeric, 1) AS error_bound,
       (SELECT max(n) FROM (SELECT count(*) AS n FROM events e
                            WHERE e.day BETWEEN date '2024-03-04' AND date '2024-03-10'
                              AND e.page NOT IN (SELECT value FROM topk_items(w.pages))
                            GROUP BY e.page) u) AS "most views of an unlisted page (exact)"
FROM week_pages w CROSS JOIN LATERAL topk_info(w.pages) i;

-- ---------------------------------------------------------------------------
\echo
\echo '== 4. How often: count-min sketches ============================================'
\echo 'One sketch per kind of event (cms_agg, epsilon = delta = 0.001), merged with'
\echo 'cms_merge_agg; an estimate is never below the true count:'
CREATE TABLE kind_sketches AS
SELECT kind, cms_agg(user_id) AS sketch FROM events GROUP BY kind;
SELECT a.user_id,
       cms_estimate(s.sketch, a.user_id) AS "purchases (estimate)",
       (SELECT count(*) FROM events e WHERE e.user_id = a.user_id AND e.kind = 'purchase')
           AS "purchases (exact)",
       cms_estimate((SELECT cms_merge_agg(sketch) FROM kind_sketches), a.user_id)
           AS "events (estimate)",
       a.events AS "events (exact)"
FROM (SELECT user_id, count(*) AS events FROM events GROUP BY user_id ORDER BY 2 DESC, 1 LIMIT 5) a,
     kind_sketches s
WHERE s.kind = 'purchase'
ORDER BY a.events DESC, a.user_id;
SELECT round(0.001 * cms_total(sketch)) AS purchase_bound FROM kind_sketches WHERE kind = 'purchase' \gset
SELECT round(0.001 * sum(cms_total(sketch))) AS event_bound FROM kind_sketches \gset
\echo 'Each estimate exceeds the truth by at most epsilon x total (here' :purchase_bound 'purchases,'
\echo :event_bound 'events), except with probability at most delta.'

-- ---------------------------------------------------------------------------
\echo
\echo '== 5. The blocked scheme: speed on a 12 MB filter =============================='
\echo 'One filter of capacity 10,000,000 at 1% (12 MB) built from 1,000,000 ids, then'
\echo 'probed with 1,000,000 ids (half of them members), once with the default scheme'
\echo '(double) and once with scheme => blocked, which keeps the bits of a value in'
\echo 'one cache line.  Serial plans; one run each, so take the times as an'
\echo 'illustration (bench/README.md has the measurements).'

SET max_parallel_workers_per_gather = 0;
CREATE TABLE ids AS SELECT g::bigint AS id FROM generate_series(1, 1000000) AS g;
CREATE TABLE probes AS SELECT g::bigint AS id FROM generate_series(500001, 1500000) AS g;
SELECT count(*) FROM ids \gset warm_
SELECT count(*) FROM probes \gset warm_

-- timed: the aggregate alone; then, untimed, the same filters stored for probing
SELECT clock_timestamp() AS t0 \gset
SELECT (bloom_info(bloom_agg(id, 10000000, 0.01))).bits FROM ids \gset double_
SELECT round(1000 * extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)) AS build_double \gset
SELECT clock_timestamp() AS t0 \gset
SELECT (bloom_info(bloom_agg(id, 10000000, 0.01, 'blocked'))).bits FROM ids \gset blocked_
SELECT round(1000 * extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)) AS build_blocked \gset
CREATE TABLE big_double AS SELECT bloom_agg(id, 10000000, 0.01) AS f FROM ids;
CREATE TABLE big_blocked AS SELECT bloom_agg(id, 10000000, 0.01, 'blocked') AS f FROM ids;

SELECT clock_timestamp() AS t0 \gset
SELECT count(*) FILTER (WHERE hit AND id <= 1000000) AS members,
       count(*) FILTER (WHERE hit AND id > 1000000) AS false_positives
FROM (SELECT p.id, bloom_contains(b.f, p.id) AS hit FROM probes p, big_double b OFFSET 0) x \gset double_
SELECT round(1000 * extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)) AS probe_double \gset
SELECT clock_timestamp() AS t0 \gset
SELECT count(*) FILTER (WHERE hit AND id <= 1000000) AS members,
       count(*) FILTER (WHERE hit AND id > 1000000) AS false_positives
FROM (SELECT p.id, bloom_contains(b.f, p.id) AS hit FROM probes p, big_blocked b OFFSET 0) x \gset blocked_
SELECT round(1000 * extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)) AS probe_blocked \gset
RESET max_parallel_workers_per_gather;

SELECT s.scheme, i.bits, i.hashes, pg_size_pretty(i.bytes::bigint) AS size,
       s.build_ms AS "build ms", s.probe_ms AS "probe ms",
       s.members AS "of the 500,000 members found",
       s.false_positives AS "false positives of the 500,000 others",
       to_char(i.current_fpr, '9.9EEEE') AS "predicted fpr"
FROM (VALUES ('double (default)', (SELECT f FROM big_double), :build_double, :probe_double, :double_members, :double_false_positives),
             ('blocked', (SELECT f FROM big_blocked), :build_blocked, :probe_blocked, :blocked_members, :blocked_false_positives))
     AS s(scheme, f, build_ms, probe_ms, members, false_positives)
CROSS JOIN LATERAL bloom_info(s.f) i;
\echo 'No filter misses a member.  These hold a tenth of their capacity,'
\echo 'so their rates are far below 1%; at equal capacity and rate, blocked pays for'
\echo 'its speed with a few more bits (3% at 1%, more at smaller rates).'

-- ---------------------------------------------------------------------------
\echo
\echo '== 6. The exact analysis behind the sizing ===================================='
\echo 'The false-positive rate of a day filter at its capacity as built (k distinct'
\echo 'bits per value, "classic"), next to the textbook approximation and the space'
\echo 'lower bound for that rate:'
SELECT i.bits, i.hashes, i.items_added AS items,
       bloom_fpr_exact(i.bits, 20000, i.hashes, 'classic') AS exact_rate_at_capacity,
       bloom_fpr_approx(i.bits, 20000, i.hashes) AS textbook_rate_at_capacity,
       round(bloom_space_lower_bound(20000, 0.01)) AS lower_bound_bits
FROM day_users f CROSS JOIN LATERAL bloom_info(f.users) i
WHERE f.day = date '2024-03-04';

\echo
\echo 'More in README.md and docs/: unions and intersections (| and &), bloom_create'
\echo 'and bloom_add, value families, text and binary forms, Citus.'

RESET search_path;
DROP SCHEMA bloomsketch_demo CASCADE;
