-- scripts/demo.sql — a demonstration of bloomsketch on a realistic event log.
-- Run by scripts/demo.sh on a throwaway server:
--     psql -X -v ON_ERROR_STOP=1 -f scripts/demo.sql
-- Deterministic: the data come from setseed() + random(), so every run prints
-- the same results.  Only the "(took ... ms)" lines vary from run to run.

\set QUIET on
\pset footer off
\pset null '-'
SET client_min_messages = warning;
SET jit = off;

CREATE EXTENSION IF NOT EXISTS bloomsketch;
DROP TABLE IF EXISTS events, user_activity, day_filters, day_exact, purchases;

-- The day filters below are sized for this many distinct users a day, at 1%.
\set capacity 30000

\echo
\echo '================================================================================'
\echo ' bloomsketch demo: one Bloom filter per day over a 90-day event log'
\echo '================================================================================'

-- ---------------------------------------------------------------------------
\echo
\echo '== 0. The data ================================================================='
\echo 'An append-only event log (ordered by time, as logs are): 3,000,000 events over'
\echo '90 days (2024-01-01 .. 2024-03-30) by user ids 1..200,000.  Activity is skewed:'
\echo '4,000 heavy users make 40% of the events, 56,000 regular users 45%, and 140,000'
\echo 'occasional users share the last 15% (some of them never show up at all).'
\echo 'Traffic grows over the quarter, so later days have more distinct users.'

SELECT clock_timestamp() AS t0 \gset
SELECT setseed(0.42) \gset
CREATE TABLE events (
	event_id bigint,
	at       timestamp,
	day      date,
	user_id  integer,
	kind     text
);
INSERT INTO events (event_id, at, day, user_id, kind)
SELECT row_number() OVER (ORDER BY at), at, at::date, user_id, kind
FROM (
	SELECT timestamp '2024-01-01'
	         + (CASE WHEN d < 0.5 THEN floor(90 * d2)        -- flat half
	                 ELSE floor(90 * sqrt(d2)) END)          -- growing half
	           * interval '1 day'
	         + t * interval '1 day' AS at,
	       -- a rank by activity, then scattered over the id space (7919 is
	       -- prime to 200000, so this is a permutation of 0..199999)
	       1 + ((CASE WHEN seg < 0.40 THEN floor(r * 4000)              -- heavy
	                  WHEN seg < 0.85 THEN 4000 + floor(r * 56000)      -- regular
	                  ELSE 60000 + floor(r * 140000) END)::int          -- occasional
	            * 7919) % 200000 AS user_id,
	       (ARRAY['view', 'view', 'view', 'click', 'click', 'search', 'cart',
	              'purchase'])[1 + floor(k * 8)::int] AS kind
	FROM (SELECT random() AS seg, random() AS r, random() AS d, random() AS d2,
	             random() AS t, random() AS k
	      FROM generate_series(1, 3000000)) AS draws
) AS e
ORDER BY e.at;
ANALYZE events;

-- per-user activity, to describe the data and to pick example users
CREATE TABLE user_activity AS
SELECT user_id, count(*) AS events, count(DISTINCT day) AS days
FROM events GROUP BY user_id;
ANALYZE user_activity;
SELECT round(1000 * extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)) AS ms \gset

SELECT to_char(count(*), 'FM9,999,999') AS events,
       count(DISTINCT day) AS days,
       to_char(count(DISTINCT user_id), 'FM9,999,999') AS distinct_users,
       pg_size_pretty(pg_table_size('events')) AS table_size
FROM events;
\echo '   (generated in' :ms 'ms; timings vary from run to run and are informative only)'

\echo
\echo 'Users by activity over the 90 days:'
SELECT CASE WHEN events >= 100 THEN '1. heavy    (100+ events)'
            WHEN events >= 10 THEN '2. regular  (10..99 events)'
            ELSE '3. occasional (1..9 events)' END AS profile,
       to_char(count(*), 'FM999,999') AS users,
       to_char(sum(events), 'FM9,999,999') AS events,
       round(100.0 * sum(events) / sum(sum(events)) OVER (), 1) AS "% of events",
       round(avg(days), 1) AS "avg active days"
FROM user_activity GROUP BY 1 ORDER BY 1;

-- ---------------------------------------------------------------------------
\echo '== 1. One Bloom filter per day ================================================='
\echo 'One pass over the log builds the 90 filters, each sized for 30,000 distinct'
\echo 'users at a 1% false-positive rate:'
\echo
\echo '    CREATE TABLE day_filters AS'
\echo '    SELECT day, bloom_agg(user_id, 30000, 0.01) AS filter FROM events GROUP BY day;'
\echo
\echo '(CREATE TABLE AS can use parallel workers; in PostgreSQL 15 INSERT ... SELECT'
\echo 'cannot.)'

SELECT clock_timestamp() AS t0 \gset
CREATE TABLE day_filters AS
SELECT day, bloom_agg(user_id, :capacity, 0.01) AS filter FROM events GROUP BY day;
SELECT round(1000 * extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)) AS ms \gset
\echo '   (90 filters built in' :ms 'ms, with parallel workers)'
ALTER TABLE day_filters ADD PRIMARY KEY (day);
ANALYZE day_filters;

-- the exact answer to compare with: who was active on each day
SELECT clock_timestamp() AS t0 \gset
CREATE TABLE day_exact AS
SELECT day, count(*) AS events, count(DISTINCT user_id) AS users,
       pg_column_size(array_agg(DISTINCT user_id)) AS raw_id_bytes
FROM events GROUP BY day;
SELECT round(1000 * extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)) AS ms \gset
\echo '   (exact distinct users and id arrays per day computed in' :ms 'ms)'

\echo
\echo 'Each filter next to the exact number of distinct users of its day and the'
\echo 'size of those ids as a plain integer[] (first and last 3 days).  bits = m,'
\echo 'hashes = k.  items_added counts every value added, repeats included (a Bloom'
\echo 'filter cannot tell a repeat from a new user), so here it equals the events of'
\echo 'the day.  pg_column_size is the space the filter takes in the table: it is'
\echo 'stored uncompressed, as half-full filter bits do not compress.'
SELECT f.day, x.users AS "users (exact)",
       x.raw_id_bytes AS "ids as int[]",
       i.bits, i.hashes, i.bits_set,
       round(100.0 * i.bits_set / i.bits, 1) AS "fill %",
       i.items_added, i.bytes, pg_column_size(f.filter) AS pg_column_size
FROM day_filters f
JOIN day_exact x USING (day)
CROSS JOIN LATERAL bloom_info(f.filter) i
WHERE f.day < date '2024-01-04' OR f.day > date '2024-03-27'
ORDER BY f.day;

\echo 'All 90 days together:'
SELECT to_char(sum(x.users), 'FM9,999,999') AS "(user, day) pairs",
       pg_size_pretty(sum(x.raw_id_bytes)) AS "raw ids as int[]",
       pg_size_pretty(sum(x.users) * 8) AS "raw ids as bigint",
       pg_size_pretty(sum(pg_column_size(f.filter))) AS "90 filters",
       round(8.0 * sum(pg_column_size(f.filter)) / sum(x.users), 1) AS "filter bits per pair",
       round(sum(x.raw_id_bytes)::numeric / sum(pg_column_size(f.filter)), 1) AS "int[] / filters"
FROM day_filters f JOIN day_exact x USING (day);

\echo 'The aggregate runs in parallel: each worker builds partial filters, which the'
\echo 'leader ORs together (bloom_agg has a combine function):'
EXPLAIN (COSTS OFF)
SELECT day, bloom_agg(user_id, :capacity, 0.01) FROM events GROUP BY day;
\echo 'Built again without parallelism (a plain HashAggregate), the filters are'
\echo 'byte-for-byte the same:'
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE day_filters_serial AS
SELECT day, bloom_agg(user_id, :capacity, 0.01) AS filter FROM events GROUP BY day;
RESET max_parallel_workers_per_gather;
SELECT count(*) AS days,
       count(*) FILTER (WHERE p.filter::bytea = s.filter::bytea) AS "identical filters",
       count(*) FILTER (WHERE p.filter::bytea <> s.filter::bytea) AS "different filters"
FROM day_filters p JOIN day_filters_serial s USING (day);

-- ---------------------------------------------------------------------------
\echo '== 2. On which days was user X seen? ==========================================='
\echo 'Asked of the 90 filter rows (36 KB each) instead of the 3,000,000-row log.'
\echo 'A filter answers "surely not" or "probably yes": it never misses a day the user'
\echo 'was active, but may say yes for a day they were not (a false positive).'

SELECT (SELECT user_id FROM user_activity ORDER BY events DESC, user_id LIMIT 1) AS heavy_user,
       (SELECT user_id FROM user_activity WHERE events BETWEEN 20 AND 30
        ORDER BY user_id LIMIT 1) AS regular_user,
       (SELECT user_id FROM user_activity WHERE events = 2 AND days = 2
        ORDER BY user_id LIMIT 1) AS occasional_user,
       (SELECT min(g) FROM generate_series(1, 200000) AS g
        WHERE g NOT IN (SELECT user_id FROM user_activity)) AS absent_user
\gset

-- one more occasional user (active on a single day), the first one in id order
-- for whom some other day's filter wrongly says yes: a false positive, found by
-- searching.  The filters are the outer side here, so each filter is read once
-- and then probed for many users.
SELECT u.user_id AS fp_user
FROM day_filters f
CROSS JOIN LATERAL (
	SELECT a.user_id FROM user_activity a
	WHERE a.days = 1 AND a.user_id <= 20000 AND bloom_contains(f.filter, a.user_id)
) AS u
WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.user_id = u.user_id AND e.day = f.day)
ORDER BY u.user_id LIMIT 1
\gset

CREATE TEMP TABLE examples (user_id integer, profile text);
INSERT INTO examples VALUES
	(:heavy_user, 'heaviest user'),
	(:regular_user, 'regular user'),
	(:occasional_user, 'occasional user'),
	(:fp_user, 'occasional (searched for a false positive)'),
	(:absent_user, 'id never seen in the log'),
	(250000, 'id outside the generated range');

SELECT clock_timestamp() AS t0 \gset
CREATE TEMP TABLE filter_answer AS
SELECT x.user_id, f.day
FROM examples x JOIN day_filters f ON bloom_contains(f.filter, x.user_id);
SELECT round(1000 * extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)) AS filter_ms \gset

SELECT clock_timestamp() AS t0 \gset
CREATE TEMP TABLE log_answer AS
SELECT DISTINCT e.user_id, e.day FROM events e
WHERE e.user_id IN (SELECT user_id FROM examples);
SELECT round(1000 * extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)) AS log_ms \gset

SELECT x.user_id, x.profile,
       (SELECT count(*) FROM log_answer l WHERE l.user_id = x.user_id) AS "days in log",
       (SELECT count(*) FROM filter_answer a WHERE a.user_id = x.user_id) AS "days filter says",
       (SELECT count(*) FROM log_answer l WHERE l.user_id = x.user_id
          AND NOT EXISTS (SELECT 1 FROM filter_answer a
                          WHERE a.user_id = l.user_id AND a.day = l.day)) AS missed,
       coalesce((SELECT string_agg(to_char(a.day, 'Mon DD'), ', ' ORDER BY a.day)
                 FROM filter_answer a WHERE a.user_id = x.user_id
                   AND NOT EXISTS (SELECT 1 FROM log_answer l
                                   WHERE l.user_id = a.user_id AND l.day = a.day)),
                'none') AS "false positive days"
FROM examples x;
\echo '   (90 filters probed for 6 users in' :filter_ms 'ms; the exact answer scanned the log in' :log_ms 'ms)'

\echo
\echo 'Day by day for the occasional users: every day either source says yes.'
SELECT a.user_id, coalesce(a.day, l.day) AS day,
       CASE WHEN a.day IS NOT NULL THEN 'yes' ELSE 'no' END AS "filter says",
       CASE WHEN l.day IS NOT NULL THEN 'yes' ELSE 'no' END AS "log says",
       CASE WHEN l.day IS NULL THEN '<-- false positive'
            WHEN a.day IS NULL THEN '<-- MISSED (must never happen)'
            ELSE '' END AS flag
FROM (SELECT * FROM filter_answer WHERE user_id IN (:occasional_user, :fp_user)) a
FULL JOIN (SELECT * FROM log_answer WHERE user_id IN (:occasional_user, :fp_user)) l
       USING (user_id, day)
ORDER BY 1, 2;

\echo 'And for everybody: every one of the 3,000,000 events probed against the filter'
\echo 'of its own day (the log is in time order, so each filter is read once):'
SELECT clock_timestamp() AS t0 \gset
SELECT to_char(count(*), 'FM9,999,999') AS "events probed",
       count(*) FILTER (WHERE NOT bloom_contains(f.filter, e.user_id)) AS "missed by the filters",
       count(*) FILTER (WHERE NOT bloom_contains(s.filter, e.user_id)) AS "missed (serial build)"
FROM events e
JOIN day_filters f USING (day)
JOIN day_filters_serial s USING (day);
SELECT round(1000 * extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)) AS ms \gset
\echo '   (took' :ms 'ms)'

-- ---------------------------------------------------------------------------
\echo
\echo '== 3. The false-positive rate, measured ========================================'
\echo '100,000 ids that never occur (1,000,001 .. 1,100,000) probed against each of'
\echo 'the 90 filters: 9,000,000 probes, every "yes" is a false positive.  The 1% is'
\echo 'the rate at capacity (30,000 users a day); a filter holding fewer users does'
\echo 'better.  "expected" is bloom_fpr(filter): the rate the filter predicts for'
\echo 'itself from the bits it has set.'

SELECT clock_timestamp() AS t0 \gset
CREATE TEMP TABLE fp AS
SELECT f.day, x.users, i.bits_set::float8 / i.bits AS fill,
       bloom_fpr(f.filter) AS expected, p.hits, p.probes
FROM day_filters f
JOIN day_exact x USING (day)
CROSS JOIN LATERAL bloom_info(f.filter) i
CROSS JOIN LATERAL (
	SELECT count(*) FILTER (WHERE bloom_contains(f.filter, g)) AS hits,
	       count(*) AS probes
	FROM generate_series(1000001, 1100000) AS g
) p;
SELECT round(1000 * extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)) AS ms \gset

SELECT CASE WHEN grp IS NULL THEN 'all 90 days' ELSE min(day)::text || ' .. ' || max(day) END AS days,
       count(*) AS "n days",
       min(users) || ' .. ' || max(users) AS "users per day",
       round((100 * avg(fill))::numeric, 1) || ' %' AS "fill",
       round((100 * avg(expected))::numeric, 3) || ' %' AS expected,
       round(100.0 * sum(hits) / sum(probes), 3) || ' %' AS measured,
       to_char(sum(hits), 'FM99,999') AS "false positives",
       to_char(sum(probes), 'FM9,999,999') AS probes
FROM (SELECT *, ntile(5) OVER (ORDER BY users, day) AS grp FROM fp) s
GROUP BY ROLLUP (grp)
ORDER BY grp NULLS LAST;
\echo '   (9,000,000 probes in' :ms 'ms)'

\echo
\echo 'The busiest day, nearly at capacity, against the configured rate:'
SELECT day, users, :capacity AS capacity, '1.000 %' AS configured,
       round((100 * expected)::numeric, 3) || ' %' AS expected,
       round(100.0 * hits / probes, 3) || ' %' AS measured
FROM fp ORDER BY users DESC LIMIT 1;

-- ---------------------------------------------------------------------------
\echo '== 4. A membership pre-filter in front of a join ==============================='
\echo '1,000,000 purchases by user ids 1..400,000 (half of them outside the active'
\echo 'range).  Question: how many purchases were made by users active on the busiest'
\echo 'day?  First the 36 KB day filter discards the purchases whose user was surely'
\echo 'not active; the exact join then only checks what got through.'

SELECT setseed(0.7) \gset
CREATE TABLE purchases AS
SELECT g AS purchase_id,
       1 + floor(random() * 400000)::int AS user_id,
       round((5 + random() * 195)::numeric, 2) AS amount
FROM generate_series(1, 1000000) AS g;
ANALYZE purchases;
SELECT day AS busy_day FROM day_exact ORDER BY users DESC, day LIMIT 1 \gset

\echo
\echo '    WITH candidates AS MATERIALIZED (         -- pre-filter'
\echo '        SELECT p.* FROM purchases p'
\echo '        WHERE bloom_contains((SELECT filter FROM day_filters WHERE day = ...),'
\echo '                             p.user_id))'
\echo '    SELECT count(*) FROM candidates c         -- exact join on the reduced set'
\echo '    WHERE c.user_id IN (SELECT user_id FROM events WHERE day = ...);'

SELECT clock_timestamp() AS t0 \gset
WITH candidates AS MATERIALIZED (
	SELECT p.* FROM purchases p
	WHERE bloom_contains((SELECT filter FROM day_filters WHERE day = :'busy_day'),
	                     p.user_id)
)
SELECT (SELECT count(*) FROM candidates) AS let_through,
       count(*) AS matched
FROM candidates c
WHERE c.user_id IN (SELECT user_id FROM events WHERE day = :'busy_day')
\gset pre_
SELECT round(1000 * extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)) AS pre_ms \gset

SELECT clock_timestamp() AS t0 \gset
SELECT count(*) AS matched
FROM purchases p
WHERE p.user_id IN (SELECT user_id FROM events WHERE day = :'busy_day')
\gset exact_
SELECT round(1000 * extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)) AS exact_ms \gset

SELECT step, to_char(rows, 'FM9,999,999') AS rows, note
FROM (VALUES
	(1, 'purchases', 1000000::bigint, ''),
	(2, 'let through by the ' || :'busy_day' || ' filter', :pre_let_through,
	    round(100.0 * :pre_let_through / 1000000, 1) || ' % of the purchases'),
	(3, '  exact matches among them', :pre_matched, 'the exact join on the reduced set'),
	(4, '  false positives dropped by the join', :pre_let_through - :pre_matched,
	    round(100.0 * (:pre_let_through - :pre_matched) / (1000000 - :pre_matched), 2)
	    || ' % of the non-matching purchases'),
	(5, 'exact join alone, no filter', :exact_matched,
	    CASE WHEN :exact_matched = :pre_matched
	         THEN 'same count: the filter dropped no true match'
	         ELSE 'DIFFERENT COUNT: the filter dropped true matches' END)
) AS t(n, step, rows, note)
ORDER BY n;
\echo '   (pre-filter + exact join:' :pre_ms 'ms; exact join alone:' :exact_ms 'ms)'
\echo '   Here both tables sit in one database and the exact join is cheap, so the'
\echo '   pre-filter saves little or nothing.  The filter pays off where the exact'
\echo '   check is expensive or far away: 36 KB travel to the purchases instead of'
\echo '   the ids, and only the rows that get through need the exact check.'

-- ---------------------------------------------------------------------------
\echo
\echo '== 5. What else ================================================================'
\echo 'Also in bloomsketch 0.1.0 (see README.md):'
\echo '  * bloom_create(capacity, fpr, seed) and bloom_add(filter, value), to build a'
\echo '    filter value by value (bloom_add returns a copy; for many rows bloom_agg,'
\echo '    which adds in place, is the way), and the operators filter @> value and'
\echo '    value <@ filter;'
\echo '  * value families: int2, int4 and int8 hash alike, so do text, varchar and'
\echo '    char; numeric 1.0 = 1.00; probing with a value of another family is an'
\echo '    error, never a silent "no";'
\echo '  * union and intersection (| and &, bloom_union_agg, bloom_intersect_agg) of'
\echo '    filters built with the same parameters, and estimates from the set bits:'
\echo '    bloom_cardinality, bloom_cardinality_bounds, bloom_union_cardinality,'
\echo '    bloom_intersection_cardinality, bloom_jaccard, bloom_fpr;'
\echo '  * equality, btree and hash opclasses; text and binary forms; bytea casts.'
\echo
\echo 'A taste of the estimates (from the filters alone) for the busiest day and the'
\echo 'day before, next to the exact counts from the log:'
SELECT :'busy_day'::date - 1 AS prev_day \gset
SELECT 'users on ' || :'busy_day' AS quantity,
       round(bloom_cardinality(b.filter)) AS estimate,
       (SELECT count(DISTINCT user_id) FROM events WHERE day = :'busy_day') AS exact
FROM day_filters b WHERE b.day = :'busy_day'
UNION ALL
SELECT 'users on either day',
       round(bloom_union_cardinality(a.filter, b.filter)),
       (SELECT count(DISTINCT user_id) FROM events
        WHERE day IN (:'prev_day', :'busy_day'))
FROM day_filters a, day_filters b WHERE a.day = :'prev_day' AND b.day = :'busy_day'
UNION ALL
SELECT 'users on both days',
       round(bloom_intersection_cardinality(a.filter, b.filter)),
       (SELECT count(*) FROM (SELECT user_id FROM events WHERE day = :'prev_day'
                              INTERSECT
                              SELECT user_id FROM events WHERE day = :'busy_day') AS both_days)
FROM day_filters a, day_filters b WHERE a.day = :'prev_day' AND b.day = :'busy_day';

\echo
\echo 'Count-min sketches count how often each value occurs, never below the truth.'
\echo 'One sketch per kind of event (epsilon = delta = 0.001), and the events of the'
\echo 'five most active users, estimated from the sketches next to the exact counts:'
CREATE TABLE kind_sketches AS
	SELECT kind, cms_agg(user_id) AS sketch FROM events GROUP BY kind;
SELECT a.user_id,
       cms_estimate(s.sketch, a.user_id) AS estimated_purchases,
       (SELECT count(*) FROM events e WHERE e.user_id = a.user_id AND e.kind = 'purchase') AS exact_purchases,
       cms_estimate((SELECT cms_merge_agg(sketch) FROM kind_sketches), a.user_id) AS estimated_events,
       a.events AS exact_events
FROM (SELECT user_id, count(*) AS events FROM events GROUP BY user_id ORDER BY 2 DESC, 1 LIMIT 5) a,
     kind_sketches s
WHERE s.kind = 'purchase'
ORDER BY a.events DESC, a.user_id;
SELECT round(0.001 * cms_total(sketch)) AS purchase_bound FROM kind_sketches WHERE kind = 'purchase' \gset
SELECT round(0.001 * sum(cms_total(sketch))) AS event_bound FROM kind_sketches \gset
\echo 'Theorem 9.1 of Kirsch and Mitzenmacher: each estimate exceeds the truth by at'
\echo 'most epsilon x total (here' :purchase_bound 'purchases,' :event_bound 'events), except with'
\echo 'probability at most delta; the estimates above are well inside that bound.'

\echo
\echo 'And the exact analysis behind the sizing: the false-positive rate of a day'
\echo 'filter as built (k distinct bits per value, "classic"), next to the textbook'
\echo 'approximation and the space lower bound for that rate:'
SELECT (bloom_info(filter)).bits, (bloom_info(filter)).hashes,
       (bloom_info(filter)).items_added AS items,
       bloom_fpr_exact((bloom_info(filter)).bits, :capacity, (bloom_info(filter)).hashes, 'classic')
           AS exact_rate_at_capacity,
       bloom_fpr_approx((bloom_info(filter)).bits, :capacity, (bloom_info(filter)).hashes)
           AS textbook_rate_at_capacity,
       round(bloom_space_lower_bound(:capacity, 0.01)) AS lower_bound_bits
FROM day_filters WHERE day = :'busy_day';
