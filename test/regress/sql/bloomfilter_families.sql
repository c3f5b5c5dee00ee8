-- Hashing follows SQL equality: values that compare equal hit the same bits
-- within their family, and a probe from another family is refused.
CREATE EXTENSION IF NOT EXISTS bloomsketch;

-- integer: int2, int4 and int8 are one family.
CREATE TABLE fam_int AS SELECT bloom_agg(v, 100) AS f FROM (VALUES (1::int4), (42), (-7), (2147483647)) t(v);
SELECT (bloom_info(f)).family,
       bloom_contains(f, 42::int2) AS int2, bloom_contains(f, 42::int4) AS int4,
       bloom_contains(f, 42::int8) AS int8, bloom_contains(f, 42) AS literal,
       bloom_contains(f, -7::int2) AS negative, bloom_contains(f, 2147483647::int8) AS max_int4,
       bloom_contains(f, 43) AS absent
FROM fam_int;
-- A filter built from int8 answers int2 and int4 probes the same way.
SELECT bloom_add(bloom_create(100), 42::int8)::bytea = bloom_add(bloom_create(100), 42::int2)::bytea AS int8_eq_int2,
       bloom_add(bloom_create(100), 42::int4)::bytea = bloom_add(bloom_create(100), 42::int8)::bytea AS int4_eq_int8;

-- text: text, varchar, bpchar (trailing blanks ignored, as bpchar equality does) and name.
CREATE TABLE fam_text AS SELECT bloom_agg(v, 100) AS f FROM (VALUES ('a'::text), ('hello world'), ('')) t(v);
SELECT (bloom_info(f)).family,
       bloom_contains(f, 'a'::varchar) AS varchar, bloom_contains(f, 'a  '::char(3)) AS bpchar_padded,
       bloom_contains(f, 'hello world'::name) AS name, bloom_contains(f, ''::text) AS empty,
       bloom_contains(f, 'a ') AS trailing_blank_text, bloom_contains(f, 'A') AS other_case
FROM fam_text;
SELECT 'a  '::char(3) = 'a'::char(1) AS sql_equal,
       bloom_add(bloom_create(10), 'a  '::char(3))::bytea = bloom_add(bloom_create(10), 'a'::char(1))::bytea AS same_bits;
-- An untyped literal is text, for the functions and the operators.
SELECT bloom_contains(f, 'hello world') AS untyped_literal, f @> 'a' AS operator,
       'hello world' <@ f AS commutator, bloom_contains(bloom_add(bloom_create(10), 'z'), 'z'::varchar) AS add_literal
FROM fam_text;

-- numeric: equal numerics hash alike whatever their scale.
CREATE TABLE fam_numeric AS SELECT bloom_agg(v, 100) AS f FROM (VALUES (1.0::numeric), (2.50), ('NaN'), (0)) t(v);
SELECT bloom_contains(f, 1::numeric) AS one, bloom_contains(f, 1.000::numeric) AS one_000,
       bloom_contains(f, 2.5::numeric) AS two_and_half, bloom_contains(f, 'NaN'::numeric) AS nan,
       bloom_contains(f, -0.00::numeric) AS zero, bloom_contains(f, 1.01::numeric) AS absent
FROM fam_numeric;

-- float: float4 and float8 are one family; -0 = 0; NaN = NaN.
CREATE TABLE fam_float AS SELECT bloom_agg(v, 100) AS f FROM (VALUES (1.5::float8), (0.0), ('NaN'), ('Infinity')) t(v);
SELECT bloom_contains(f, 1.5::float4) AS float4, bloom_contains(f, '-0'::float8) AS minus_zero,
       bloom_contains(f, 'NaN'::float4) AS nan, bloom_contains(f, 'Infinity'::float4) AS inf,
       bloom_contains(f, 0.1::float8) AS absent
FROM fam_float;
-- 0.1::float4 and 0.1::float8 are not equal in SQL, and do not hash alike.
SELECT 0.1::float4 = 0.1::float8 AS sql_equal,
       bloom_contains(bloom_add(bloom_create(10), 0.1::float8), 0.1::float4) AS found;

-- bool, date, timestamp, timestamptz, uuid, bytea.
SELECT bloom_contains(bloom_add(bloom_create(10), true), true) AS bool_true,
       bloom_contains(bloom_add(bloom_create(10), true), false) AS bool_false,
       bloom_contains(bloom_add(bloom_create(10), '2024-02-29'::date), '2024-02-29'::date) AS date,
       bloom_contains(bloom_add(bloom_create(10), '2024-02-29 12:00'::timestamp), '2024-02-29 12:00:00.000'::timestamp) AS ts,
       bloom_contains(bloom_add(bloom_create(10), '2024-02-29 12:00+00'::timestamptz), '2024-02-29 14:00+02'::timestamptz) AS tstz_same_instant,
       bloom_contains(bloom_add(bloom_create(10), 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid), 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid) AS uuid_case,
       bloom_contains(bloom_add(bloom_create(10), '\xdeadbeef'::bytea), '\xdeadbeef'::bytea) AS bytea;

-- Other types go through their binary send form, tagged with the type name.
SELECT (bloom_info(bloom_add(bloom_create(10), '10.0.0.1'::inet))).family ~ '^other-[0-9a-f]{8}$' AS inet_family,
       bloom_contains(bloom_add(bloom_create(10), '10.0.0.1'::inet), '10.0.0.1/32'::inet) AS inet,
       bloom_contains(bloom_add(bloom_create(10), ARRAY[1, 2, 3]), ARRAY[1, 2, 3]) AS int_array,
       bloom_contains(bloom_add(bloom_create(10), ARRAY[1, 2, 3]), ARRAY[1, 2, 4]) AS other_array;
-- Documented limit: the send form of interval is not canonical, so
-- '1 day' and '24 hours', equal in SQL, do not hash alike.
SELECT interval '1 day' = interval '24 hours' AS sql_equal,
       bloom_contains(bloom_add(bloom_create(10), interval '1 day'), interval '24 hours') AS found;

-- Domains hash as their base type.
CREATE DOMAIN fam_posint AS int4 CHECK (VALUE > 0);
SELECT bloom_contains(f, 42::fam_posint) AS domain_probe FROM fam_int;

-- A probe or add from another family is an error with a hint.
-- (psql prints each error's message, detail and hint; the \echo its SQLSTATE.)
SELECT bloom_contains(f, 'abc'::text) FROM fam_int;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_contains(f, 42) FROM fam_text;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_contains(f, 1.5::float8) FROM fam_numeric;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_add(f, 1.0::numeric) FROM fam_int;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_contains(bloom_add(bloom_create(10), '10.0.0.1'::inet), '10.0.0.0/8'::cidr);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bloom_agg(v, 10) FROM (VALUES ('1'::text)) t(v), fam_int WHERE bloom_contains(f, v);
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- An empty filter has no family yet: any probe answers false.
SELECT bloom_contains(bloom_create(10), 1) AS int_probe, bloom_contains(bloom_create(10), 'x'::text) AS text_probe;
