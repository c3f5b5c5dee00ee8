-- Limits and cancellation.
--
-- (a) The largest values, and what happens beyond them.  PostgreSQL refuses
-- values over 1 GB, so bloomsketch keeps every value at most 750,000,000
-- bytes of bits or counters, whose base64 text form (4/3 of that, 10^9
-- characters, plus a short header) still fits:
--   bloomfilter  m <= 5,999,999,989 bits for the double schemes (the largest
--                prime below 6*10^9), m <= 6,000,000,000 for independent,
--                partition (k times a prime) and blocked (a multiple of
--                512); k <= 1024 (blocked: 64).  At a 1% rate that is
--                625,459,012 items (double) and 604,961,402 (blocked).
--   cmsketch     40 + 8*w*d*copies <= 750,000,000 bytes, w prime, d <= w,
--                d and copies <= 65,535: the widest sketch of one row has
--                w = 93,749,987.
-- A request for more (huge capacity, tiny rate, huge width or depth, in a
-- function, an aggregate or a header read by text or binary input) is
-- refused with 54000 before anything is allocated; a header that claims an
-- allowed size but comes with fewer bytes is malformed input (22P02 text,
-- 22P03 binary); a number that does not fit its field is a syntax error
-- (22P02); negative and zero sizes are invalid parameters (22023).
--
-- (b) Cancellation: long operations poll for interrupts, so
-- statement_timeout and pg_cancel_backend end them (57014).  How soon is
-- measured in bench/cancel_latency.sh, and that every long loop polls is
-- checked by test/unit/common/test_core_interrupts.c, not here.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomsketch;
RESET client_min_messages;
-- SQLSTATEs only: the codes are the contract, the wording may improve.
\set VERBOSITY sqlstate

-- ---------------------------------------------------------------------------
-- (a) The largest Bloom filters
-- ---------------------------------------------------------------------------
-- The largest filter at 1%: exactly 750 MB of bits; one more item is refused.
SELECT bits, hashes, bytes FROM bloom_info(bloom_create(625459012, 0.01));
SELECT bloom_create(625459013, 0.01);
SELECT bits, hashes, bytes FROM bloom_info(bloom_create(604961402, 0.01, 0, 'blocked'));
SELECT bloom_create(604961403, 0.01, 0, 'blocked');

-- The largest capacity with the smallest rate, in every scheme: 54000.  No
-- filter can hold that many items: n log2(1/fpr) bits, the space lower
-- bound, is past the largest filter, so it is refused before any sizing
-- search (test/unit/common/test_core_interrupts.c shows that no search runs).
SELECT bloom_create(9223372036854775807, 1e-300, 0, 'double');
SELECT bloom_create(9223372036854775807, 1e-300, 0, 'double_square');
SELECT bloom_create(9223372036854775807, 1e-300, 0, 'double_cube');
SELECT bloom_create(9223372036854775807, 1e-300, 0, 'partition');
SELECT bloom_create(9223372036854775807, 1e-300, 0, 'independent');
SELECT bloom_create(9223372036854775807, 1e-300, 0, 'blocked');
SELECT bloom_create(9223372036854775807);
SELECT bloom_create(1000000000, 0.01);
SELECT bloom_create(1000000000, 0.0001, 0, 'blocked');
-- Tiny rates are fine when the filter fits, for the schemes whose k
-- positions are hashed separately; the double-hashing and partition schemes
-- refuse them at small n, where Kirsch and Mitzenmacher's term would need a
-- filter far larger than usual (22023).
SELECT scheme, bits < 6000000000 AS fits
FROM bloom_info(bloom_create(100, 1e-300, 0, 'independent'));
SELECT hashes, bits FROM bloom_info(bloom_create(1, 4.9e-324, 0, 'independent'));
SELECT bloom_create(100, 1e-300, 0, 'partition');
SELECT bloom_create(1, 4.9e-324);
-- but not for blocked filters, whose rate is bounded by overfull blocks
SELECT bloom_create(1, 1e-300, 0, 'blocked');

-- The same limits through the aggregate (checked on its first row).
SELECT bloom_agg(i, 9223372036854775807) FROM generate_series(1, 3) i;
SELECT bloom_agg(i, 1000000000, 1e-300) FROM generate_series(1, 3) i;
SELECT bloom_agg(i, 1000000000, 1e-300, 'double') FROM generate_series(1, 3) i;
SELECT bloom_agg(i, 1000000000, 1e-300, 'double_square') FROM generate_series(1, 3) i;
SELECT bloom_agg(i, 1000000000, 1e-300, 'double_cube') FROM generate_series(1, 3) i;
SELECT bloom_agg(i, 1000000000, 1e-300, 'partition') FROM generate_series(1, 3) i;
SELECT bloom_agg(i, 1000000000, 1e-300, 'independent') FROM generate_series(1, 3) i;
SELECT bloom_agg(i, 1000000000, 1e-300, 'blocked') FROM generate_series(1, 3) i;
-- The aggregate of no rows never sizes anything.
SELECT bloom_agg(i, 9223372036854775807) IS NULL AS no_rows FROM generate_series(1, 0) i;

-- Out-of-range parameters: 22023.
SELECT bloom_create(-9223372036854775808);
SELECT bloom_create(0);
SELECT bloom_create(100, 0);
SELECT bloom_create(100, 1);
SELECT bloom_create(100, -1e-300);
SELECT bloom_create(100, 'NaN');
SELECT bloom_create(100, 'Infinity');
SELECT bloom_agg(i, -1) FROM generate_series(1, 3) i;
SELECT bloom_agg(i, 100, 0) FROM generate_series(1, 3) i;
-- A NULL size parameter: 22004 (null_value_not_allowed).
SELECT bloom_agg(i, NULL::bigint) FROM generate_series(1, 3) i;
-- The extreme seeds are ordinary seeds.
SELECT seed FROM bloom_info(bloom_create(10, 0.01, -9223372036854775808))
UNION ALL SELECT seed FROM bloom_info(bloom_create(10, 0.01, 9223372036854775807));

-- ---------------------------------------------------------------------------
-- (a) The largest count-min sketches
-- ---------------------------------------------------------------------------
-- The widest sketch of one row: 750,000,000 bytes; the next width is refused.
SELECT width, depth, copies, bytes FROM cms_info(cms_create_dims(93749987, 1));
SELECT cms_create_dims(93749988, 1);     -- rounded up to the prime 93750023
-- Huge widths and depths, and the 32-bit extremes.
SELECT cms_create_dims(2147483647, 2147483647);
SELECT cms_create_dims(2147483647, 1);
SELECT cms_create_dims(1, 2147483647);
SELECT cms_create_dims(65537, 65535);
SELECT cms_create_dims(-2147483648, 1);
SELECT cms_create_dims(1, -2147483648);
SELECT cms_create_dims(0, 1);
SELECT cms_create_dims(10, 0);
SELECT cms_create_dims(2, 3);            -- depth above the (prime) width
SELECT width, depth, copies, bytes FROM cms_info(cms_create_dims(1, 1));
-- Tiny epsilon (width) and tiny delta (copies).
SELECT cms_create(1e-300, 1e-300);
SELECT cms_create(4.9e-324, 0.5);
SELECT cms_create(1e-9, 0.5);
SELECT cms_create(0.999, 1e-300);        -- 690,431 copies; at most 65,535
SELECT width, depth, copies, bytes FROM cms_info(cms_create(0.001, 1e-200));   -- 67 copies
SELECT width, depth, copies, bytes FROM cms_info(cms_create(0.3, 4.9e-324));    -- 619 copies
SELECT cms_agg(i, 1e-300, 1e-300) FROM generate_series(1, 3) i;
SELECT cms_agg(i, 1, 1e-9, 0.5) FROM generate_series(1, 3) i;
SELECT cms_create(0, 0.1);
SELECT cms_create(0.1, 0);
SELECT cms_create(-1, 0.1);
SELECT cms_create(0.1, 1);
SELECT cms_create('NaN', 0.1);
SELECT cms_create(0.1, 'Infinity');
-- Counts: negative is invalid, past the largest bigint is out of range.
SELECT cms_add(cms_create(), 'x', -1);
SELECT cms_total(cms_add(cms_create(), 'x', 9223372036854775807)) AS largest_total;
SELECT cms_add(cms_add(cms_create(), 'x', 9223372036854775807), 'y');
SELECT cms_merge(cms_add(cms_create(), 'x', 9223372036854775807), cms_add(cms_create(), 'y'));
SELECT cms_agg(i, 9223372036854775807) FROM generate_series(1, 2) i;

-- ---------------------------------------------------------------------------
-- (a) Headers that claim huge sizes, in text and in binary
-- ---------------------------------------------------------------------------
-- Little-endian bytes of 0 <= v < 2^64, for building binary headers.
CREATE FUNCTION le_bytes(v numeric, n integer) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
	SELECT string_agg(set_byte('\x00'::bytea, 0, mod(div(v, 256::numeric ^ i), 256)::integer), '\x'::bytea ORDER BY i)
	FROM generate_series(0, n - 1) i
$$;
-- A bloomfilter header: version 1, scheme double, family none, k = 7, m bits,
-- seed 0, items 0 (docs/format.md, "Bloom filter layout"), then `payload` zero bytes.
CREATE FUNCTION bloom_header(m numeric, payload integer) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
	SELECT '\x01010000'::bytea || le_bytes(7, 2) || le_bytes(0, 2) || le_bytes(0, 4) || le_bytes(m, 8)
		|| le_bytes(0, 8) || le_bytes(0, 8) || decode(repeat('00', payload), 'hex')
$$;
-- A cmsketch header: version 1, family none, w, d, copies, seed 0, total 0.
CREATE FUNCTION cms_header(w numeric, d numeric, copies numeric, payload integer) RETURNS bytea
LANGUAGE sql IMMUTABLE AS $$
	SELECT '\x0100'::bytea || le_bytes(0, 2) || le_bytes(0, 4) || le_bytes(w, 4) || le_bytes(d, 2)
		|| le_bytes(copies, 2) || le_bytes(0, 8) || le_bytes(0, 8) || decode(repeat('00', payload), 'hex')
$$;
SELECT bloom_header(5999999989, 8) AS largest_m_header;
-- The header is read first: too large (54000) whatever follows; an allowed
-- size with too few bytes is malformed (22P02 text, 22P03 binary); a number
-- that overflows its field is a syntax error (22P02).
SELECT 'bloom:v1:double:none:k=7:m=6000000001:seed=0:items=0:AAAAAAAAAAA='::bloomfilter;
SELECT 'bloom:v1:independent:none:k=7:m=6000000001:seed=0:items=0:AAAAAAAAAAA='::bloomfilter;
SELECT 'bloom:v1:double:none:k=7:m=18446744073709551615:seed=0:items=0:AAAAAAAAAAA='::bloomfilter;
SELECT 'bloom:v1:double:none:k=7:m=5999999989:seed=0:items=0:AAAAAAAAAAA='::bloomfilter;
SELECT 'bloom:v1:double:none:k=7:m=18446744073709551616:seed=0:items=0:AAAAAAAAAAA='::bloomfilter;
SELECT 'bloom:v1:double:none:k=65535:m=11:seed=0:items=0:AAAAAAAAAAA='::bloomfilter;
SELECT 'bloom:v1:double:none:k=65536:m=11:seed=0:items=0:AAAAAAAAAAA='::bloomfilter;
SELECT 'bloom:v1:double:none:k=1:m=11:seed=-9223372036854775809:items=0:AAAAAAAAAAA='::bloomfilter;
SELECT bloom_header(6000000001, 8)::bloomfilter;
SELECT bloom_header(18446744073709551615, 8)::bloomfilter;
SELECT bloom_header(5999999989, 8)::bloomfilter;
SELECT bloom_header(5999999989, 0)::bloomfilter;
SELECT bits FROM bloom_info(bloom_header(11, 8)::bloomfilter);   -- the builder is right
SELECT 'cms:v1:none:w=4294967291:d=1:copies=1:seed=0:total=0:AAAAAAAAAAA='::cmsketch;
SELECT 'cms:v1:none:w=4294967291:d=65535:copies=65535:seed=0:total=0:AAAAAAAAAAA='::cmsketch;
SELECT 'cms:v1:none:w=93750023:d=1:copies=1:seed=0:total=0:AAAAAAAAAAA='::cmsketch;
SELECT 'cms:v1:none:w=93749987:d=1:copies=1:seed=0:total=0:AAAAAAAAAAA='::cmsketch;
SELECT 'cms:v1:none:w=4294967296:d=1:copies=1:seed=0:total=0:AAAAAAAAAAA='::cmsketch;
SELECT 'cms:v1:none:w=11:d=65536:copies=1:seed=0:total=0:AAAAAAAAAAA='::cmsketch;
SELECT 'cms:v1:none:w=11:d=1:copies=65536:seed=0:total=0:AAAAAAAAAAA='::cmsketch;
SELECT cms_header(4294967291, 65535, 65535, 8)::cmsketch;
SELECT cms_header(93750023, 1, 1, 8)::cmsketch;
SELECT cms_header(93749987, 1, 1, 8)::cmsketch;
SELECT cms_header(93749987, 1, 1, 0)::cmsketch;
SELECT width FROM cms_info(cms_header(2, 1, 1, 16)::cmsketch);  -- the builder is right
-- Counts at the top of their unsigned 64-bit fields.  A sketch may hold a
-- counter and a total beyond bigint: it reads back, but a total or an
-- estimate that does not fit bigint is out of range in SQL (22003; value 1
-- lands on the counter 0, value 2 on the counter 2^64 - 1).
SELECT 'cms:v1:integer:w=2:d=1:copies=1:seed=0:total=18446744073709551615://////////8AAAAAAAAAAA=='::cmsketch AS reads_back;
SELECT cms_estimate('cms:v1:integer:w=2:d=1:copies=1:seed=0:total=18446744073709551615://////////8AAAAAAAAAAA=='::cmsketch, 1) AS small_counter;
SELECT cms_estimate('cms:v1:integer:w=2:d=1:copies=1:seed=0:total=18446744073709551615://////////8AAAAAAAAAAA=='::cmsketch, 2);
SELECT cms_total('cms:v1:integer:w=2:d=1:copies=1:seed=0:total=18446744073709551615://////////8AAAAAAAAAAA=='::cmsketch);
-- A filter's item count (additions, repeats included) stops at 2^64 - 1
-- rather than wrap to 0, which would make a value the validator refuses (more
-- bits set than its items can set): one that could not be restored.
SELECT bloom_add(f, 1)::text::bloomfilter = bloom_add(f, 1) AS restorable,
       bloom_union(f, f)::text::bloomfilter = bloom_union(f, f) AS union_restorable
FROM (VALUES ('bloom:v1:double:integer:k=1:m=11:seed=0:items=18446744073709551615:AAEAAAAAAAA='::bloomfilter)) v(f);
DROP FUNCTION bloom_header(numeric, integer), cms_header(numeric, numeric, numeric, integer), le_bytes(numeric, integer);

-- ---------------------------------------------------------------------------
-- (a) The exact analysis at its limits (m <= 2^36 bits, k <= 65536)
-- ---------------------------------------------------------------------------
SELECT bloom_optimal_bits(1000000000, 1e-300);
SELECT bloom_optimal_bits(9223372036854775807, 0.01);
SELECT bloom_fpr_exact(8589934592, 1000000000, 1000) AS saturated;
SELECT bloom_fpr_exact(9223372036854775807, 1, 1) > 0 AS huge_m;
SELECT bloom_optimal_k(9223372036854775807, 1) AS k_cap;
SELECT bloom_fpr_exact(1000, 10, 65537);
SELECT bloom_fpr_exact(1000, 10, 2147483647);
SELECT bloom_fpr_exact(-1, 10, 1);
SELECT bloom_fpr_exact(1000, -1, 1);
SELECT bloom_fpr_exact(1000, 10, 0);
SELECT bloom_fpr_exact(1000000, 10000, 65536);   -- too long a computation: refused

-- ---------------------------------------------------------------------------
-- (b) Cancellation
-- ---------------------------------------------------------------------------
-- Each statement below would run for hours or more if it completed; with a
-- 300 ms statement_timeout each fails with 57014 instead.  Nothing here
-- depends on speed: no statement can finish before the timeout on any
-- plausible machine (bench/cancel_latency.sh measures how soon they end).
SET statement_timeout = '300ms';

-- bloom_agg over 10^12 rows, streamed from a set-returning function in the
-- target list (in FROM, generate_series would first be materialized and the
-- timeout would fire there, never reaching bloom_agg).
SELECT bloom_info(bloom_agg(i, 100000000, 0.01)) FROM (SELECT generate_series(1, 1000000000000) AS i) s;

-- bloom_fit_agg over 10^12 rows at the largest ceiling (2^32 bits): its
-- hash list is sorted and merged, then turned into bits, long before the end.
SELECT bloom_info(bloom_fit_agg(i, 0.01, 4294967296)) FROM (SELECT generate_series(1, 1000000000000) AS i) s;

-- bloom_union_agg and bloom_intersect_agg over 10^9 generated 12 MB filters.
SELECT bloom_info(bloom_union_agg(bloom_add(bloom_create(10000000, 0.01), i)))
FROM (SELECT generate_series(1, 1000000000) AS i) s;
SELECT bloom_info(bloom_intersect_agg(bloom_add(bloom_create(10000000, 0.01, 0, 'blocked'), i)))
FROM (SELECT generate_series(1, 1000000000) AS i) s;

-- The exact analysis: 10^6 calls of about 0.5 s each, and 10^9 calls of a
-- few milliseconds each.
SELECT count(bloom_fpr_exact(m, 10000, 16000)) FROM (SELECT generate_series(1000000, 1999999) AS m) s;
SELECT count(bloom_fpr_exact(m, 1000000000, 1000))
FROM (SELECT generate_series(8589934592, 8589934592 + 999999999) AS m) s;

-- cms_agg over 10^12 rows into a 52 MB sketch (epsilon = 10^-5),
-- cms_merge_agg over 10^9 generated 52 MB sketches, and topk_agg over
-- 10^12 rows.
SELECT cms_info(cms_agg(i, 0.00001, 0.001)) FROM (SELECT generate_series(1, 1000000000000) AS i) s;
SELECT cms_info(cms_merge_agg(cms_add(cms_create(0.00001, 0.001), i)))
FROM (SELECT generate_series(1, 1000000000) AS i) s;
SELECT topk_info(topk_agg(i, 1000)) FROM (SELECT generate_series(1, 1000000000000) AS i) s;

-- The text form of a 683 MB filter and of a 750 MB sketch, 10^6 times.
SELECT sum(length(bloom_create(570000000, 0.01)::text)) FROM generate_series(1, 1000000);
SELECT sum(length(cms_create_dims(93749987, 1)::text)) FROM generate_series(1, 1000000);

RESET statement_timeout;
-- The backend is fine afterwards.
SELECT bloom_contains(bloom_add(bloom_create(10), 1), 1) AND cms_estimate(cms_add(cms_create(), 1), 1) = 1 AS still_works;
\set VERBOSITY default
